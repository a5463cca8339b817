package io.github.workqueue.spring.internal;

import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

import io.github.workqueue.core.trace.AddTraces;

import io.github.workqueue.spring.WorkResult;

/**
 * Wraps each call of a worker method, for tracing and timing. At most one is used: the
 * bean of this type, if any.
 */
@FunctionalInterface
public interface WorkObserver {

	/** Calls through without observing. */
	WorkObserver NONE = (queueName, item, work) -> work.call();

	/**
	 * Runs the work for the item.
	 * @param queueName the queue's name
	 * @param item the item
	 * @param work the call of the worker method
	 * @return what the work returned
	 * @throws Throwable what the work threw
	 */
	WorkResult observe(String queueName, Object item, Work work) throws Throwable;

	/**
	 * Runs the work for the item, knowing the trace contexts of the adds it serves; the
	 * container calls this one. By default, {@link #observe(String, Object, Work)}.
	 * @param queueName the queue's name
	 * @param item the item
	 * @param traces the trace contexts of the adds this processing serves (a retry's are
	 * its first attempt's), or null when none carried one
	 * @param attempt the attempt this processing is (1 plus the failures in a row); asked
	 * only when needed, since on Redis it costs a round trip
	 * @param work the call of the worker method
	 * @return what the work returned
	 * @throws Throwable what the work threw
	 */
	default WorkResult observe(String queueName, Object item, @Nullable AddTraces traces, IntSupplier attempt,
			Work work) throws Throwable {
		return observe(queueName, item, work);
	}

	/**
	 * The call of the worker method.
	 */
	@FunctionalInterface
	interface Work {

		/**
		 * Calls the method.
		 * @return its result
		 * @throws Throwable what it threw
		 */
		WorkResult call() throws Throwable;

	}

}
