package io.github.workqueue.spring.internal;

import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.DeferredDone;
import io.github.workqueue.core.ItemLease;
import io.github.workqueue.core.LeasedQueue;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.core.trace.TraceCarry;
import io.github.workqueue.core.trace.TracedQueue;
import io.github.workqueue.spring.ProcessingOutcome;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.WorkContext;
import io.github.workqueue.spring.WorkResult;

/**
 * One container's processing of each item its workers take: the hand-over's last step
 * before the call ({@link ItemHandOver#begin}), the observed call of the worker method,
 * its outcome ({@link OutcomeHandler}), the listeners told of its start and end, and the
 * item's {@code done}, then the slot freed ({@link ItemHandOver#finished}).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each worker calls it for its own item, on its own
 * thread and slot; it keeps no state of its own but the failure log's, which is
 * thread-safe.
 */
final class ItemProcessor {

	private static final Log logger = LogFactory.getLog(QueueWorkerContainer.class);

	/** The outcome of an item whose method ended on the shutdown's interrupt. */
	private static final ProcessingOutcome ABANDONED = new ProcessingOutcome(ProcessingOutcome.Kind.ABANDONED, 0, null,
			null, null);

	private final RateLimitingQueue<Object> queue;

	private final String queueName;

	private final QueueWorkerMethod method;

	private final WorkObserver observer;

	private final ItemListeners listeners;

	private final OutcomeHandler outcomes;

	private final ItemHandOver handOver;

	/** Logs failed outcomes, a run of alike ones without a stack trace per item. */
	private final OutcomeFailureLog failureLog = new OutcomeFailureLog(logger, System::nanoTime);

	ItemProcessor(RateLimitingQueue<Object> queue, QueueWorkerMethod method, WorkObserver observer,
			ItemListeners listeners, OutcomeHandler outcomes, ItemHandOver handOver) {
		this.queue = queue;
		this.queueName = queue.name();
		this.method = method;
		this.observer = observer;
		this.listeners = listeners;
		this.outcomes = outcomes;
		this.handOver = handOver;
	}

	/**
	 * Processes an item a worker took: the method, then its outcome, then its
	 * {@code done}, whatever failed before; the slot is free once it returns.
	 */
	void process(WorkerSlot slot, Object item, int priority) {
		try {
			handle(slot, item, priority);
			this.failureLog.succeeded();
		}
		catch (Throwable ex) {
			// Also what a limiter bean or an event listener throws, checked or not: the
			// worker must survive it. Through an outage every item fails alike: one
			// stack trace for the run.
			this.failureLog.failed("Queue '" + this.queueName + "': handling the outcome of item '" + item + "' failed",
					ex);
		}
		finally {
			try {
				done(item);
			}
			finally {
				this.handOver.finished(slot);
			}
		}
	}

	private void handle(WorkerSlot slot, Object item, int priority) {
		if (!this.method.accepts(item)) {
			this.outcomes.wrongType(item, this.method);
			return;
		}
		AddTraces traces = tracesOf(item);
		WorkResult result;
		try {
			result = this.observer.observe(this.queueName, item, traces, () -> this.outcomes.attempt(item), () -> {
				if (!this.handOver.begin(slot, item)) {
					throw AbandonedAtShutdown.INSTANCE;
				}
				this.listeners.started(this.queueName, item);
				return this.method.invoke(item, () -> context(item, priority));
			});
			if (Thread.interrupted() && !this.handOver.abandonedAtShutdown()) {
				throw new InterruptedException("the worker method returned with its thread's interrupt status set");
			}
		}
		catch (Throwable failure) {
			if (failure == AbandonedAtShutdown.INSTANCE) {
				return;
			}
			// The worker goes on: an interrupt ends its wait only when the container
			// stops.
			boolean interrupted = Thread.interrupted() || failure instanceof InterruptedException;
			if (this.handOver.abandonedAtShutdown() && interrupted) {
				logger.info("Queue '" + this.queueName + "': the method processing item '" + item
						+ "' ended on the shutdown's interrupt; the item is named in the shutdown report");
				ended(slot, item, ABANDONED);
				return;
			}
			// A retry stays in the trace of the adds that caused the first attempt.
			ended(slot, item,
					(traces != null) ? TraceCarry.carrying(traces.parent(), () -> this.outcomes.failed(item, failure))
							: this.outcomes.failed(item, failure));
			return;
		}
		ended(slot, item, this.outcomes.returned(item, result));
	}

	/**
	 * Tells the listeners that a processing they heard start ended, before its done: one
	 * whose slot is busy (the hand-over recorded the item, on this thread, before the
	 * listeners heard it start).
	 */
	private void ended(WorkerSlot slot, Object item, ProcessingOutcome outcome) {
		if (slot.busySince != WorkerSlot.IDLE) {
			this.listeners.ended(this.queueName, item, outcome);
		}
	}

	/**
	 * Ends the item's processing; on a queue that offers it, without waiting for the
	 * backend's answer (group commit: the worker's next take shares the round trip),
	 * whose outcome the queue logs and counts.
	 */
	@SuppressWarnings("unchecked")
	private void done(Object item) {
		if (this.queue instanceof DeferredDone<?> deferred) {
			((DeferredDone<Object>) deferred).doneWithoutWaiting(item);
		}
		else {
			this.queue.done(item);
		}
	}

	/**
	 * The trace contexts of the adds this processing serves, where the queue keeps them.
	 */
	@SuppressWarnings("unchecked")
	private @Nullable AddTraces tracesOf(Object item) {
		return (this.queue instanceof TracedQueue<?> traced)
				? ((TracedQueue<Object>) traced).addTraces(item).orElse(null) : null;
	}

	/** The context of a call, made on the worker's thread (a lease is the thread's). */
	@SuppressWarnings("unchecked")
	private WorkContext context(Object item, int priority) {
		Optional<ItemLease> lease = (this.queue instanceof LeasedQueue<?> leased)
				? ((LeasedQueue<Object>) leased).lease(item).map(ItemLease.class::cast) : Optional.empty();
		return new WorkContext(this.queueName, this.outcomes.attempt(item), priority, this.queue.fairnessKeysOf(item),
				lease);
	}

	/**
	 * Ends the observed call of an item the worker took after the container gave up: the
	 * method is not called and the item is named in the shutdown report.
	 */
	private static final class AbandonedAtShutdown extends RuntimeException {

		private static final long serialVersionUID = 1L;

		static final AbandonedAtShutdown INSTANCE = new AbandonedAtShutdown();

		private AbandonedAtShutdown() {
			super("the container gave up at shutdown before the method was called", null, false, false);
		}

	}

}
