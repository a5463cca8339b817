package io.github.workqueue.sample;

/**
 * The priorities of the deployments queue: a user's change overtakes the periodic resync
 * of every key (controller-runtime's rule for informer resyncs).
 */
final class Priorities {

	/** A desired state changed through the API. */
	static final int USER_CHANGE = 10;

	/** The periodic resync of every known key. */
	static final int RESYNC = -10;

	private Priorities() {
	}

}
