package io.github.workqueue.kubernetes.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.OverrunAction;
import io.github.workqueue.spring.QueueWorkerContainer;

/**
 * Waits for the keys in flight of paused worker containers to end before a deadline: at
 * shutdown (then the caller decides whether to release the Lease), and when this replica
 * was deposed, where keys still running at the deadline (when the Lease may pass to
 * another replica) are handled as {@link OverrunAction} says: the process halts, or they
 * are interrupted.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: holds no state of its own; the containers are.
 */
final class WorkDrain {

	private static final Log logger = LogFactory.getLog(KubernetesInformers.class);

	private final Supplier<List<QueueWorkerContainer>> containers;

	private final OverrunAction onOverrun;

	private final Runnable halt;

	/**
	 * @param containers the paused containers whose keys must end
	 * @param onOverrun what to do with keys still running at a deposed replica's deadline
	 * @param halt what {@link OverrunAction#EXIT} runs
	 */
	WorkDrain(Supplier<List<QueueWorkerContainer>> containers, OverrunAction onOverrun, Runnable halt) {
		this.containers = containers;
		this.onOverrun = onOverrun;
		this.halt = halt;
	}

	/**
	 * Waits until no container runs a key, or the deadline.
	 * @param deadlineNanos {@link System#nanoTime()} to stop waiting at
	 * @return whether none runs one
	 */
	boolean awaitIdle(long deadlineNanos) {
		try {
			for (QueueWorkerContainer container : this.containers.get()) {
				if (!container.awaitIdle(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())))) {
					return false;
				}
			}
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * A deposed replica's keys must end before the Lease may pass: waits for them until
	 * the deadline, then halts or interrupts for those still running, unless the replica
	 * was elected again meanwhile.
	 * @param deadlineNanos when the Lease may pass ({@link System#nanoTime()})
	 * @param overtaken whether this replica leads again (then its keys may run)
	 */
	void beforeTheLeasePasses(long deadlineNanos, BooleanSupplier overtaken) {
		if (awaitIdle(deadlineNanos)) {
			logger.info("Keys in flight ended " + Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000)
					+ " ms before the Lease may pass to another replica");
			return;
		}
		if (overtaken.getAsBoolean()) {
			return;
		}
		List<QueueWorkerContainer.Processing> running = new ArrayList<>();
		this.containers.get().forEach((container) -> running.addAll(container.processing()));
		if (this.onOverrun == OverrunAction.EXIT) {
			logger.error("Lost the Lease with keys still running when another replica may take it over " + running
					+ "; halting the process (workqueue.kubernetes.leader-election.on-overrun=exit), so that no key "
					+ "runs on two replicas at once");
			this.halt.run();
		}
		else {
			logger.error("Lost the Lease with keys still running when another replica may take it over " + running
					+ "; interrupting them (workqueue.kubernetes.leader-election.on-overrun=interrupt)");
			this.containers.get().forEach(QueueWorkerContainer::interruptProcessing);
		}
	}

}
