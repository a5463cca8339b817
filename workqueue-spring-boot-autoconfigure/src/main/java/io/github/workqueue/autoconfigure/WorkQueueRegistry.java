package io.github.workqueue.autoconfigure;

import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;

import io.github.workqueue.autoconfigure.internal.QueueSettings;
import io.github.workqueue.autoconfigure.internal.WorkQueueFactory;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueResolver;
import io.github.workqueue.spring.WorkerSettings;

/**
 * All the application's queues by name: the queue beans (declared under
 * {@code workqueue.queues} or defined by the application) and the queues made from the
 * defaults for {@code @QueueWorker}s whose queue is not declared.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe.
 */
public class WorkQueueRegistry implements QueueResolver, DisposableBean {

	private static final Log logger = LogFactory.getLog(WorkQueueRegistry.class);

	private final ListableBeanFactory beanFactory;

	private final WorkQueueFactory factory;

	private final Map<String, RateLimitingQueue<Object>> undeclared = new ConcurrentHashMap<>();

	public WorkQueueRegistry(ListableBeanFactory beanFactory, WorkQueueFactory factory) {
		this.beanFactory = beanFactory;
		this.factory = factory;
	}

	/**
	 * Returns every queue, by name, sorted.
	 * @return the queues
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public Map<String, RateLimitingQueue<?>> getQueues() {
		Map<String, RateLimitingQueue<?>> all = new TreeMap<>(this.undeclared);
		Map beans = this.beanFactory.getBeansOfType(RateLimitingQueue.class);
		all.putAll(beans);
		return all;
	}

	/**
	 * Returns the queue of that name.
	 * @param name the queue name
	 * @return the queue, or null if there is none
	 */
	public @Nullable RateLimitingQueue<?> getQueue(String name) {
		RateLimitingQueue<Object> bean = queueBean(name);
		return (bean != null) ? bean : this.undeclared.get(name);
	}

	/**
	 * Returns the queue of that name, making one from the defaults if there is none.
	 * @param name the queue name
	 * @return the queue
	 */
	public RateLimitingQueue<Object> getOrCreateQueue(String name) {
		RateLimitingQueue<Object> bean = queueBean(name);
		return (bean != null) ? bean : this.undeclared.computeIfAbsent(name, this.factory::create);
	}

	/**
	 * The queue of a {@code @QueueWorker}: {@link #getOrCreateQueue(String)}.
	 */
	@Override
	public RateLimitingQueue<Object> queue(String queueName) {
		if (queueBean(queueName) == null) {
			warnIfUndeclared(queueName);
		}
		return getOrCreateQueue(queueName);
	}

	private void warnIfUndeclared(String queueName) {
		Set<String> declared = this.factory.declaredQueueNames();
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

	/**
	 * The queue's {@code workers}, {@code max-retries} and {@code not-retryable}, from
	 * its properties or the defaults.
	 */
	@Override
	public WorkerSettings settings(String queueName) {
		QueueSettings settings = this.factory.settings(queueName);
		return new WorkerSettings(settings.workers(), settings.maxRetries(), settings.notRetryable());
	}

	@SuppressWarnings("unchecked")
	private @Nullable RateLimitingQueue<Object> queueBean(String name) {
		if (this.beanFactory.containsBean(name) && this.beanFactory.isTypeMatch(name, RateLimitingQueue.class)) {
			return this.beanFactory.getBean(name, RateLimitingQueue.class);
		}
		return null;
	}

	@Override
	public void destroy() {
		this.undeclared.values().forEach(RateLimitingQueue::shutDown);
	}

}
