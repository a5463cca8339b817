package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.Predicate;

import io.github.workqueue.redis.DoneResult;
import io.github.workqueue.redis.Lease;
import io.github.workqueue.redis.RedisQueue;

import static org.awaitility.Awaitility.await;

/**
 * Work on several instances of one Redis queue, as applications would run it through a
 * fault: on each instance a producer adds a new item every few milliseconds and workers
 * that keep up take items, work 5 to 15 ms and call done. Records when each instance's
 * adds, gets and accepted dones succeeded, so that a test can ask how long after a fault
 * each of them resumed. Failed adds and dones are counted, not thrown: they are what a
 * fault is expected to cause while it lasts.
 *
 * <p>
 * Thread-safe: the records are concurrent; {@link #close()} is called once.
 */
public final class Traffic implements AutoCloseable {

	private final List<Instance> instances = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean stopped;

	private volatile boolean producing = true;

	/**
	 * Starts the work, one producer per instance.
	 * @param queues one queue object per instance
	 * @param workers workers per instance
	 * @param addEvery how long each producer waits between adds
	 */
	public Traffic(List<RedisQueue<String>> queues, int workers, Duration addEvery) {
		this(queues, workers, addEvery, 1, (instance, producer, n) -> "i" + instance + "-" + n);
	}

	/**
	 * Starts the work.
	 * @param queues one queue object per instance
	 * @param workers workers per instance
	 * @param addEvery how long each producer waits between adds
	 * @param producers producers per instance
	 * @param names the items each producer adds
	 */
	public Traffic(List<RedisQueue<String>> queues, int workers, Duration addEvery, int producers, ItemNames names) {
		for (int i = 0; i < queues.size(); i++) {
			Instance instance = new Instance(i, queues.get(i));
			this.instances.add(instance);
			for (int p = 0; p < producers; p++) {
				int producer = p;
				start("producer-" + i + "-" + p,
						() -> produce(instance, addEvery, (n) -> names.name(instance.index, producer, n)));
			}
			for (int w = 0; w < workers; w++) {
				start("worker-" + i + "-" + w, () -> consume(instance));
			}
		}
	}

	private void start(String name, Runnable task) {
		Thread thread = new Thread(task, "traffic-" + name);
		thread.setDaemon(true);
		this.threads.add(thread);
		thread.start();
	}

	private void produce(Instance instance, Duration addEvery, LongFunction<String> names) {
		long n = 0;
		while (!this.stopped && this.producing) {
			String item = names.apply(n++);
			try {
				instance.queue.add(item);
				long added = System.nanoTime();
				instance.adds.add(new Done(item, added));
				instance.events.add(new Event(item, "add returned", 0, added));
			}
			catch (RuntimeException ex) {
				instance.failedAdds.incrementAndGet();
			}
			pause(addEvery);
		}
	}

	private void consume(Instance instance) {
		while (!this.stopped) {
			try {
				Optional<String> item = instance.queue.get(Duration.ofSeconds(1));
				if (item.isEmpty()) {
					continue;
				}
				long taken = System.nanoTime();
				instance.gets.add(taken);
				Lease lease = instance.queue.lease(item.get()).orElseThrow();
				instance.grants.add(new Grant(item.get(), lease.token(), taken));
				instance.events.add(new Event(item.get(), "got", lease.token(), taken));
				pause(Duration.ofMillis(ThreadLocalRandom.current().nextInt(5, 16)));
				DoneResult result;
				try {
					result = instance.queue.done(lease);
				}
				catch (RuntimeException ex) {
					instance.events.add(new Event(item.get(), "done threw " + ex, lease.token(), System.nanoTime()));
					throw ex;
				}
				long answered = System.nanoTime();
				instance.events.add(new Event(item.get(), "done " + result, lease.token(), answered));
				if (result == DoneResult.ACCEPTED) {
					instance.dones.add(new Done(item.get(), answered));
				}
				else {
					instance.unacceptedDones.incrementAndGet();
				}
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				instance.failedGets.incrementAndGet();
			}
		}
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	public List<Instance> instances() {
		return this.instances;
	}

	/**
	 * Waits until every instance has added, taken and finished an item since the fault,
	 * at most {@code bound}.
	 * @param faultNanos when the fault happened ({@link System#nanoTime()})
	 * @return per instance, how long after the fault its first accepted done came
	 */
	public List<Duration> awaitResumed(long faultNanos, Duration bound) {
		await().atMost(bound)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.instances.stream().allMatch((instance) -> instance.resumedSince(faultNanos)));
		return this.instances.stream()
			.map((instance) -> instance.firstDoneAfter(faultNanos, (done) -> true).orElseThrow())
			.toList();
	}

	/** Stops the producers; the workers go on. */
	public void stopProducing() {
		this.producing = false;
	}

	/** Stops the producers and workers, and waits for them (30 s each at most). */
	@Override
	public void close() {
		this.stopped = true;
		for (Thread thread : this.threads) {
			thread.interrupt();
		}
		try {
			for (Thread thread : this.threads) {
				thread.join(30_000);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The items a producer adds. */
	@FunctionalInterface
	public interface ItemNames {

		/**
		 * The producer's n-th item; a new one for each n, so that every add makes an item
		 * dirty.
		 */
		String name(int instance, int producer, long n);

	}

	/** An accepted done: the item, and when done returned. */
	public record Done(String item, long nanos) {
	}

	/** A lease a worker got: the item, its fencing token, and when get returned. */
	public record Grant(String item, long token, long nanos) {
	}

	/**
	 * What happened to an item on one instance, for the report of a broken guarantee: an
	 * add that returned, a lease got, a done's outcome (with the lease's token).
	 */
	public record Event(String item, String what, long token, long nanos) {
	}

	/** One instance's records. */
	public static final class Instance {

		final int index;

		final RedisQueue<String> queue;

		final ConcurrentLinkedQueue<Done> adds = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> gets = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Done> dones = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Grant> grants = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();

		final AtomicLong failedAdds = new AtomicLong();

		final AtomicLong failedGets = new AtomicLong();

		final AtomicLong unacceptedDones = new AtomicLong();

		Instance(int index, RedisQueue<String> queue) {
			this.index = index;
			this.queue = queue;
		}

		boolean resumedSince(long faultNanos) {
			return this.adds.stream().anyMatch((add) -> add.nanos - faultNanos > 0) && after(this.gets, faultNanos)
					&& firstDoneAfter(faultNanos, (done) -> true).isPresent();
		}

		private static boolean after(ConcurrentLinkedQueue<Long> times, long faultNanos) {
			return times.stream().anyMatch((time) -> time - faultNanos > 0);
		}

		/**
		 * How long after the fault the first accepted done of an item that passes the
		 * filter came.
		 */
		public Optional<Duration> firstDoneAfter(long faultNanos, Predicate<String> filter) {
			return this.dones.stream()
				.filter((done) -> done.nanos - faultNanos > 0 && filter.test(done.item))
				.map((done) -> Duration.ofNanos(done.nanos - faultNanos))
				.min(Duration::compareTo);
		}

		/** The successful adds, in the order they returned on each thread. */
		public List<Done> adds() {
			return List.copyOf(this.adds);
		}

		/** The accepted dones, in the order they returned on each thread. */
		public List<Done> dones() {
			return List.copyOf(this.dones);
		}

		/** The leases the workers got, in the order get returned on each thread. */
		public List<Grant> grants() {
			return List.copyOf(this.grants);
		}

		/** What happened to the items here, in the order it happened on each thread. */
		public List<Event> events() {
			return List.copyOf(this.events);
		}

		/** The instance's number, from 0. */
		public int index() {
			return this.index;
		}

		public long failedAdds() {
			return this.failedAdds.get();
		}

		public long unacceptedDones() {
			return this.unacceptedDones.get();
		}

		public RedisQueue<String> queue() {
			return this.queue;
		}

	}

}
