package io.github.workqueue.spring;

/**
 * Why a worker gave an item up.
 */
public enum GiveUpReason {

	/** It failed more than {@code max-retries} times. */
	MAX_RETRIES,

	/** It failed with an exception marked not retryable. */
	NOT_RETRYABLE,

	/** It is not of the type the worker method accepts. */
	ITEM_TYPE_MISMATCH

}
