package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

import io.github.workqueue.autoconfigure.actuate.InstanceDescriptor;
import io.github.workqueue.autoconfigure.actuate.LeaseDescriptor;
import io.github.workqueue.autoconfigure.actuate.PauseDescriptor;
import io.github.workqueue.autoconfigure.actuate.SharedDescriptor;
import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.redis.InFlightItem;
import io.github.workqueue.redis.QueueInstance;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueStats;

/**
 * What the endpoint and health show of a queue shared on Redis, read within
 * {@link #BOUND}: while Redis does not answer, the last figures read come back marked
 * unreachable since the outage began, at once when the queue already knows of the outage
 * ({@link RedisQueue#unreachableSince()}), otherwise after the bound. One read per queue
 * is under way at a time: a read still waiting for Redis is awaited again, not repeated,
 * so that polls through an outage do not pile up threads. Nothing is logged here: the
 * queue logs each outage once.
 *
 * <p>
 * The Redis classes are optional: they are only touched (in {@link Redis}) once
 * {@link #AVAILABLE} says they are there, so an application without them never loads
 * them.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: each queue's entry is updated under its monitor.
 */
final class SharedQueueView {

	/** The longest a read of Redis holds up the endpoint or the health check. */
	static final Duration BOUND = Duration.ofSeconds(2);

	private static final boolean AVAILABLE = ClassUtils.isPresent("io.github.workqueue.redis.RedisQueue",
			SharedQueueView.class.getClassLoader());

	private static final AtomicInteger threads = new AtomicInteger();

	private static final ExecutorService READS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
			new SynchronousQueue<>(), (task) -> {
				Thread thread = new Thread(task, "workqueue-shared-read-" + threads.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});

	private final Map<RateLimitingQueue<?>, Entry> entries = new ConcurrentHashMap<>();

	/**
	 * Starts reading the figures of every Redis queue among these, all at once, so that
	 * reading them one after the other ({@link #read(RateLimitingQueue, long)}) takes one
	 * {@link #BOUND} in all, not one each.
	 */
	void startReads(Collection<? extends RateLimitingQueue<?>> queues) {
		for (RateLimitingQueue<?> queue : queues) {
			// A stalled sender would not answer either; a known outage needs no read.
			if (isShared(queue) && Redis.stall(queue) == null && Redis.unreachableSince(queue).isEmpty()) {
				entry(queue).start(queue);
			}
		}
	}

	/**
	 * Reads a Redis queue's figures, or returns {@code null} for an in-memory queue.
	 * Never throws for Redis's sake, and returns within about {@link #BOUND}.
	 */
	@Nullable Reading read(RateLimitingQueue<?> queue) {
		return read(queue, System.nanoTime() + BOUND.toNanos());
	}

	/**
	 * Reads a Redis queue's figures as {@link #read(RateLimitingQueue)} does, waiting for
	 * Redis until the deadline ({@link System#nanoTime()}) at most.
	 */
	@Nullable Reading read(RateLimitingQueue<?> queue, long deadlineNanos) {
		if (!isShared(queue)) {
			return null;
		}
		Entry entry = entry(queue);
		Optional<Instant> down = Redis.unreachableSince(queue);
		if (down.isPresent()) {
			return entry.unreachable(down.get(), "Redis cannot be reached");
		}
		CompletableFuture<Reading> read = entry.start(queue);
		try {
			return entry.answered(read.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS));
		}
		catch (TimeoutException ex) {
			return entry.unreachable(Instant.now(), "Redis did not answer within " + BOUND.toSeconds() + " s");
		}
		catch (ExecutionException ex) {
			return entry.unreachable(Instant.now(), "Redis cannot be reached: " + ex.getCause().getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return entry.unreachable(Instant.now(), "interrupted while reading Redis");
		}
	}

	private Entry entry(RateLimitingQueue<?> queue) {
		return this.entries.computeIfAbsent(queue, (key) -> new Entry());
	}

	/**
	 * Returns why a Redis queue is unhealthy (its sender stalled, or Redis cannot be
	 * reached), or {@code null}; waiting for Redis until the deadline
	 * ({@link System#nanoTime()}) at most.
	 */
	@Nullable String problem(RateLimitingQueue<?> queue, long deadlineNanos) {
		if (!isShared(queue)) {
			return null;
		}
		String stalled = Redis.stall(queue);
		if (stalled != null) {
			return stalled;
		}
		Reading reading = read(queue, deadlineNanos);
		return (reading != null && reading.shared().unreachable() != null)
				? reading.shared().unreachable() + " (since "
						+ Instant.ofEpochMilli(Objects.requireNonNull(reading.shared().unreachableSinceMillis())) + ")"
				: null;
	}

	/**
	 * The queue's depth now, as the endpoint's figure counts it ({@code len()}: every
	 * priority; queue-wide from Redis for a Redis queue), or {@code null} while Redis
	 * cannot be reached.
	 */
	static @Nullable Integer depthNow(RateLimitingQueue<?> queue) {
		if (isShared(queue) && Redis.unreachableSince(queue).isPresent()) {
			return null;
		}
		try {
			return queue.len();
		}
		catch (RuntimeException ex) {
			// Redis failed to answer: the next sample reads it again.
			return null;
		}
	}

	static boolean isShared(RateLimitingQueue<?> queue) {
		return AVAILABLE && Redis.is(queue);
	}

	/** Pauses a Redis queue on every instance, or resumes it. */
	static void changePauseEverywhere(RateLimitingQueue<?> queue, boolean pause, String by) {
		Redis.changePauseEverywhere(queue, pause, by);
	}

	/**
	 * Requeues or drops a parked item of a Redis queue.
	 * @return whether the item was parked
	 */
	static boolean changeParked(RateLimitingQueue<?> queue, boolean requeue, String item) {
		return Redis.changeParked(queue, requeue, item);
	}

	/**
	 * Removes an item of a Redis queue named as stored.
	 * @return whether it was queued, waiting or due to run again
	 */
	static boolean removeEncoded(RateLimitingQueue<?> queue, String item) {
		return Redis.removeEncoded(queue, item);
	}

	/**
	 * A Redis queue's figures, read together.
	 *
	 * @param shared what Redis holds, marked when it could not be read
	 * @param depthByPriority ready items per priority
	 * @param depthByFairnessKey ready items per first fairness key
	 * @param deadLetters the queue's dead letters, given up (the newest 1,000) then
	 * parked
	 * @param deadLetterCount all of the queue's dead letters
	 */
	record Reading(SharedDescriptor shared, Map<Integer, Integer> depthByPriority,
			Map<String, Integer> depthByFairnessKey, List<DeadLetter> deadLetters, long deadLetterCount) {

	}

	/** One queue's last reading and the read under way. Guarded by its monitor. */
	private static final class Entry {

		private @Nullable Reading last;

		private @Nullable Instant failingSince;

		private @Nullable CompletableFuture<Reading> reading;

		synchronized CompletableFuture<Reading> start(RateLimitingQueue<?> queue) {
			if (this.reading == null || this.reading.isDone()) {
				this.reading = CompletableFuture.supplyAsync(() -> Redis.read(queue), READS);
			}
			return this.reading;
		}

		synchronized Reading answered(Reading reading) {
			this.last = reading;
			this.failingSince = null;
			return reading;
		}

		/** The last figures, or none, marked unreachable since the outage's start. */
		synchronized Reading unreachable(Instant since, String why) {
			if (this.failingSince == null || since.isBefore(this.failingSince)) {
				this.failingSince = since;
			}
			long sinceMillis = this.failingSince.toEpochMilli();
			Reading known = this.last;
			if (known == null) {
				return new Reading(new SharedDescriptor(null, 0, null, null, null, null, null, List.of(), Map.of(), why,
						sinceMillis, null, List.of()), Map.of(), Map.of(), List.of(), 0);
			}
			SharedDescriptor shared = known.shared();
			return new Reading(
					new SharedDescriptor(shared.instance(), shared.shards(), shared.queued(), shared.waiting(),
							shared.inFlight(), shared.redeliveries(), shared.rejectedDones(), shared.leases(),
							shared.parked(), why, sinceMillis, shared.pausedEverywhere(), shared.instances()),
					known.depthByPriority(), known.depthByFairnessKey(), known.deadLetters(), known.deadLetterCount());
		}

	}

	/** The only code that names Redis classes. */
	private static final class Redis {

		static boolean is(RateLimitingQueue<?> queue) {
			return queue instanceof RedisQueue<?>;
		}

		static Optional<Instant> unreachableSince(RateLimitingQueue<?> queue) {
			return ((RedisQueue<?>) queue).unreachableSince();
		}

		static @Nullable String stall(RateLimitingQueue<?> queue) {
			return ((RedisQueue<?>) queue).stalledFor()
				.map((stalled) -> "the thread that sends this instance's requests to Redis has made no progress for "
						+ stalled.toSeconds() + "s (its stack is in the ERROR log)")
				.orElse(null);
		}

		static Reading read(RateLimitingQueue<?> queue) {
			RedisQueue<?> redis = (RedisQueue<?>) queue;
			RedisQueueStats stats = redis.stats();
			// The depth is the sum of the same read as its priorities, so that the
			// figure and its per-priority legend always agree while a backlog drains.
			Map<Integer, Integer> depthByPriority = redis.lenByPriority();
			long depth = depthByPriority.values().stream().mapToLong(Integer::longValue).sum();
			List<LeaseDescriptor> leases = redis.inFlight().stream().map(Redis::lease).toList();
			Map<String, Long> leasesByHolder = leases.stream()
				.collect(Collectors.groupingBy(LeaseDescriptor::holder, Collectors.counting()));
			// One read of the pause (a script call) for the card and every instance's
			// row.
			PauseDescriptor pausedEverywhere = redis.pausedEverywhere()
				.map((pause) -> new PauseDescriptor(pause.by(), pause.since().toEpochMilli()))
				.orElse(null);
			SharedDescriptor shared = new SharedDescriptor(redis.holder(), redis.shards(), depth, stats.waiting(),
					stats.inFlight(), stats.redeliveries(), stats.rejectedDones(), leases, redis.parked(), null, null,
					pausedEverywhere,
					redis.instances()
						.stream()
						.map((instance) -> instance(instance, leasesByHolder, pausedEverywhere != null))
						.toList());
			return new Reading(shared, depthByPriority, redis.lenByFairnessKey(), redis.deadLetters(),
					stats.deadLetters());
		}

		/**
		 * An instance as its heartbeat says; one not seen lately holds only the leases
		 * Redis still has for it, and waits for nothing. While the queue is paused
		 * everywhere every instance takes nothing, whatever its own pause says.
		 */
		private static InstanceDescriptor instance(QueueInstance instance, Map<String, Long> leasesByHolder,
				boolean pausedEverywhere) {
			boolean paused = instance.paused() || pausedEverywhere;
			double lastSeen = seconds(Duration.between(instance.lastSeen(), Instant.now()));
			if (lastSeen > InstanceDescriptor.NOT_SEEN_SECONDS) {
				int held = leasesByHolder.getOrDefault(instance.holder(), 0L).intValue();
				return new InstanceDescriptor(instance.holder(), held, 0, 0, paused, lastSeen, true);
			}
			return new InstanceDescriptor(instance.holder(), instance.inFlight(), instance.waitingInGet(),
					instance.leasedAhead(), paused, lastSeen, false);
		}

		private static LeaseDescriptor lease(InFlightItem item) {
			return new LeaseDescriptor(item.item(), item.holder(),
					seconds(Duration.between(item.grantedAt(), item.observedAt())),
					seconds(Duration.between(item.observedAt(), item.expiresAt())));
		}

		private static double seconds(Duration duration) {
			return duration.toMillis() / 1000.0;
		}

		static void changePauseEverywhere(RateLimitingQueue<?> queue, boolean pause, String by) {
			RedisQueue<?> redis = (RedisQueue<?>) queue;
			if (pause) {
				redis.pauseEverywhere(by);
			}
			else {
				redis.resumeEverywhere();
			}
		}

		static boolean removeEncoded(RateLimitingQueue<?> queue, String item) {
			return ((RedisQueue<?>) queue).removeEncoded(item);
		}

		static boolean changeParked(RateLimitingQueue<?> queue, boolean requeue, String item) {
			RedisQueue<?> redis = (RedisQueue<?>) queue;
			return requeue ? redis.requeueParked(item) : redis.dropParked(item);
		}

	}

}
