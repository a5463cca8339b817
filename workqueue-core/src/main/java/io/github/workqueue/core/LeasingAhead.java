package io.github.workqueue.core;

/**
 * A queue whose backend may lease items ahead of the threads that will take them
 * (prefetch): the shared Redis queue. The worker container gives them back when it
 * pauses, so that other instances can take them meanwhile, and says whether its workers
 * take items, so that the other instances can see it.
 */
public interface LeasingAhead {

	/**
	 * Gives back the items this instance leased ahead of its threads: each returns at
	 * once to the head of its priority, in order, not counted as a redelivery. None is
	 * leased ahead again until a thread asks for an item.
	 * @return how many were given back
	 */
	int giveBackLeasedAhead();

	/**
	 * Says whether this instance's workers are paused (or held), for the other instances
	 * to see: a Redis queue writes it in this instance's heartbeat.
	 * @param paused whether the workers take no items now
	 */
	void workersPaused(boolean paused);

}
