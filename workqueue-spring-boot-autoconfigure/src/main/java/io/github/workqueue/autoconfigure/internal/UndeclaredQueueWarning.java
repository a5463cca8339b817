package io.github.workqueue.autoconfigure.internal;

import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Warns when a {@code @QueueWorker} names a queue that is not declared while others are:
 * most often a typo, which would leave the declared queue without a worker.
 */
public final class UndeclaredQueueWarning {

	private static final Log logger = LogFactory.getLog("io.github.workqueue.autoconfigure.WorkQueueRegistry");

	private UndeclaredQueueWarning() {
	}

	/**
	 * Logs a warning naming the nearest declared queue, unless the queue is declared or
	 * nothing is.
	 * @param queueName the name the worker gives
	 * @param declared the names under {@code workqueue.queues}
	 */
	public static void warnIfUndeclared(String queueName, Set<String> declared) {
		if (declared.isEmpty() || declared.contains(queueName)) {
			return;
		}
		String nearest = declared.stream()
			.min(Comparator.comparingInt((String candidate) -> editDistance(candidate, queueName)))
			.orElseThrow();
		logger.warn("A @QueueWorker names queue '" + queueName + "', which is not declared under workqueue.queues "
				+ "(declared: " + new TreeSet<>(declared) + "); it gets a queue of its own with workqueue.defaults. "
				+ "Did you mean '" + nearest + "'? If not, declare workqueue.queues." + queueName
				+ " to silence this warning.");
	}

	/** Levenshtein distance, to suggest the declared name a typo was meant to be. */
	static int editDistance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
