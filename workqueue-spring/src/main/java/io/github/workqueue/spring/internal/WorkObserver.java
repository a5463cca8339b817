package io.github.workqueue.spring.internal;

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
