package io.github.workqueue.autoconfigure.actuate;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.DeadLetters;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * The {@code workqueues} endpoint: every queue at a glance, one queue in detail (404 for
 * an unknown name), and pausing or resuming a queue's workers ({@code POST {"action":
 * "pause"}} or {@code "resume"}). A queue shared on Redis also shows its queue-wide
 * figures, every instance's leases and its parked items, and takes
 * {@code "requeue-parked"} and {@code "drop-parked"} with the parked {@code "item"} as
 * stored. With the dashboard on, {@code ?since=<epoch millis>} adds each queue's recent
 * rates and latencies taken after that time ({@link RecentRates}).
 */
@Endpoint(id = "workqueues")
public class WorkQueuesEndpoint {

	private static final int MOST_PROCESSING_LISTED = 100;

	private static final int MOST_DEAD_LETTERS_LISTED = 100;

	private final WorkQueueRegistry queues;

	private final QueueWorkerRegistry workers;

	private final @Nullable MeterRegistry meterRegistry;

	private final @Nullable RecentRates recentRates;

	private final SharedQueueView sharedView = new SharedQueueView();

	private final @Nullable Double stuckAfterSeconds;

	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry) {
		this(queues, workers, meterRegistry, null);
	}

	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry, @Nullable RecentRates recentRates) {
		this(queues, workers, meterRegistry, recentRates, null);
	}

	/**
	 * Creates the endpoint.
	 * @param queues the queues
	 * @param workers the worker containers
	 * @param meterRegistry where the queues' meters are, if metrics are on
	 * @param recentRates the queues' recent rates, if they are sampled (the dashboard is
	 * on)
	 * @param stuckThreshold the processing time after which an item counts as stuck
	 * ({@code workqueue.health.stuck-threshold}), if set
	 */
	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry, @Nullable RecentRates recentRates,
			@Nullable Duration stuckThreshold) {
		this.queues = queues;
		this.workers = workers;
		this.meterRegistry = meterRegistry;
		this.recentRates = recentRates;
		this.stuckAfterSeconds = (stuckThreshold != null) ? stuckThreshold.toMillis() / 1000.0 : null;
	}

	/**
	 * Describes every queue, without recent rates.
	 * @return the queues
	 */
	public QueuesDescriptor queues() {
		return queues(null);
	}

	/**
	 * Describes every queue.
	 * @param since if given, each queue's recent rates sampled after this time (epoch
	 * milliseconds) are included, when they are sampled
	 * @return the queues
	 */
	@ReadOperation
	public QueuesDescriptor queues(@Nullable Long since) {
		Map<String, QueueDescriptor> all = new TreeMap<>();
		Map<String, RateLimitingQueue<?>> queues = this.queues.getQueues();
		this.sharedView.startReads(queues.values());
		long deadline = System.nanoTime() + SharedQueueView.BOUND.toNanos();
		queues.forEach((name, queue) -> all.put(name, describe(name, queue, since, deadline)));
		return new QueuesDescriptor(all);
	}

	public @Nullable QueueDescriptor queue(String name) {
		return queue(name, null, null);
	}

	/**
	 * Tells whether a queue of that name exists, without reading it.
	 * @param name the queue
	 * @return whether it exists
	 */
	public boolean hasQueue(String name) {
		return this.queues.getQueue(name) != null;
	}

	/**
	 * Names the queues, in order.
	 * @return their names
	 */
	public List<String> names() {
		return List.copyOf(new TreeMap<>(this.queues.getQueues()).keySet());
	}

	public @Nullable QueueDescriptor queue(String name, @Nullable String search) {
		return queue(name, search, null);
	}

	/**
	 * Describes one queue.
	 * @param name the queue
	 * @param search if given, only the dead letters whose item contains it (ignoring
	 * case) are listed and counted; on Redis, among the newest 1,000 given up and the
	 * parked ones
	 * @param offset how many dead letters to pass over before the 100 listed (paging,
	 * newest first); 0 if not given
	 * @return the queue, or {@code null} if there is none of that name
	 */
	@ReadOperation
	public @Nullable QueueDescriptor queue(@Selector String name, @Nullable String search, @Nullable Integer offset) {
		RateLimitingQueue<?> queue = this.queues.getQueue(name);
		if (offset != null && offset < 0) {
			throw new InvalidEndpointRequestException("\"offset\" must be 0 or more, was " + offset, "Invalid offset");
		}
		return (queue != null) ? describe(name, queue, null, System.nanoTime() + SharedQueueView.BOUND.toNanos(),
				search, (offset != null) ? offset : 0) : null;
	}

	private QueueDescriptor describe(String name, RateLimitingQueue<?> queue, @Nullable Long since) {
		return describe(name, queue, since, System.nanoTime() + SharedQueueView.BOUND.toNanos());
	}

	public QueueDescriptor changeWorkers(String name, String action, @Nullable String item) {
		return changeWorkers(name, action, item, null);
	}

	/**
	 * Changes a queue: {@code pause} or {@code resume} this instance's workers;
	 * {@code pause-everywhere} or {@code resume-everywhere} a Redis queue on every
	 * instance; {@code requeue-parked} or {@code drop-parked} a parked {@code item}.
	 * @param name the queue
	 * @param action what to do
	 * @param item the parked item, for the parked actions
	 * @param principal who asks, if known: named as who paused a queue everywhere
	 * @return the queue, changed
	 */
	@WriteOperation
	public QueueDescriptor changeWorkers(@Selector String name, String action, @Nullable String item,
			@Nullable Principal principal) {
		RateLimitingQueue<?> queue = this.queues.getQueue(name);
		if (queue == null) {
			throw new InvalidEndpointRequestException("No queue named '" + name + "'", "No such queue");
		}
		String verb = action.trim().toLowerCase(Locale.ROOT);
		if (verb.equals("requeue-parked") || verb.equals("drop-parked")) {
			return changeParked(name, queue, verb.equals("requeue-parked"), item);
		}
		if (verb.equals("requeue-dead-letter") || verb.equals("drop-dead-letter")) {
			return changeDeadLetters(name, queue, verb.equals("requeue-dead-letter"), item);
		}
		if (verb.equals("pause-everywhere") || verb.equals("resume-everywhere")) {
			if (!SharedQueueView.isShared(queue)) {
				throw new InvalidEndpointRequestException(
						"Queue '" + name + "' is in memory: only a Redis queue pauses on every instance; use \"pause\"",
						"Not a Redis queue");
			}
			String by = ((principal != null) ? principal.getName() : "anonymous") + " through the workqueues endpoint";
			SharedQueueView.changePauseEverywhere(queue, verb.equals("pause-everywhere"), by);
			return describe(name, queue, null);
		}
		QueueWorkerContainer container = this.workers.getContainer(name);
		if (container == null) {
			throw new InvalidEndpointRequestException("Queue '" + name + "' has no @QueueWorker to pause or resume",
					"Queue has no workers");
		}
		switch (verb) {
			case "pause" -> container.pause();
			case "resume" -> container.resume();
			default -> throw new InvalidEndpointRequestException(
					"Unknown action '" + action + "': use \"pause\", \"resume\", \"pause-everywhere\", "
							+ "\"resume-everywhere\", \"requeue-dead-letter\", \"drop-dead-letter\", "
							+ "\"requeue-parked\" or \"drop-parked\"",
					"Unknown action");
		}
		return describe(name, queue, null);
	}

	/**
	 * Requeues or drops a dead letter, or every one listed when the item is {@code "*"}.
	 */
	private QueueDescriptor changeDeadLetters(String name, RateLimitingQueue<?> queue, boolean requeue,
			@Nullable String item) {
		QueueWorkerContainer container = this.workers.getContainer(name);
		DeadLetters<?> letters = (container != null) ? container.deadLetters()
				: (queue instanceof DeadLetters<?> own) ? own : null;
		if (letters == null) {
			throw new InvalidEndpointRequestException(
					"Queue '" + name + "' keeps no dead letters: it has no @QueueWorker and is in memory",
					"No dead letters");
		}
		if (item == null || item.isEmpty()) {
			throw new InvalidEndpointRequestException(
					"Missing \"item\": send a dead letter's item as listed in deadLetters, or \"*\" for all",
					"Missing item");
		}
		List<String> items = item.equals("*")
				? letters.deadLetters().stream().limit(MOST_DEAD_LETTERS_LISTED).map(DeadLetter::item).toList()
				: List.of(item);
		boolean any = false;
		for (String one : items) {
			any |= requeue ? letters.requeueDeadLetter(one) : letters.dropDeadLetter(one);
		}
		if (!any && !item.equals("*")) {
			throw new InvalidEndpointRequestException(
					"Item '" + item + "' is not a dead letter of queue '" + name + "'", "Not a dead letter");
		}
		return describe(name, queue, null);
	}

	private QueueDescriptor changeParked(String name, RateLimitingQueue<?> queue, boolean requeue,
			@Nullable String item) {
		if (!SharedQueueView.isShared(queue)) {
			throw new InvalidEndpointRequestException(
					"Queue '" + name + "' is in memory: only a Redis queue parks items", "Not a Redis queue");
		}
		if (item == null || item.isEmpty()) {
			throw new InvalidEndpointRequestException(
					"Missing \"item\": send the parked item as stored, a key of shared.parked", "Missing item");
		}
		if (!SharedQueueView.changeParked(queue, requeue, item)) {
			throw new InvalidEndpointRequestException("Item '" + item + "' is not parked in queue '" + name + "'",
					"Item not parked");
		}
		return describe(name, queue, null);
	}

	private QueueDescriptor describe(String name, RateLimitingQueue<?> queue, @Nullable Long since,
			long deadlineNanos) {
		return describe(name, queue, since, deadlineNanos, null, 0);
	}

	private QueueDescriptor describe(String name, RateLimitingQueue<?> queue, @Nullable Long since, long deadlineNanos,
			@Nullable String search, int offset) {
		QueueWorkerContainer container = this.workers.getContainer(name);
		WorkersDescriptor workers = (container != null) ? new WorkersDescriptor(container.method(), container.workers(),
				container.liveWorkers(), container.replacedWorkers(), container.inFlight(), container.isPaused(),
				container.longestRunning().toMillis() / 1000.0, this.stuckAfterSeconds, container.outcomes(),
				processing(container)) : null;
		boolean searched = search != null && !search.isBlank();
		SharedQueueView.Reading reading = this.sharedView.read(queue, deadlineNanos);
		List<RateSample> recent = (since != null && this.recentRates != null) ? this.recentRates.since(name, since)
				: null;
		if (reading == null) {
			List<DeadLetter> letters = matching((container != null) ? container.deadLetters().deadLetters() : List.of(),
					search);
			return new QueueDescriptor("memory", queue.len(), queue.lenByPriority(), queue.lenByFairnessKey(),
					queue.waitingLen(), queue.isShuttingDown(), count("workqueue.adds", name), completions(name),
					count("workqueue.retries", name), queue.rateLimiter().toString(), workers, null, recent,
					letters.size(), offset, listed(letters, offset));
		}
		// A Redis queue's figures were read together, within a bound (the last ones,
		// marked,
		// while Redis does not answer).
		SharedDescriptor shared = reading.shared();
		List<DeadLetter> letters = matching(reading.deadLetters(), search);
		long deadLetterCount = searched ? letters.size() : Math.max(letters.size(), reading.deadLetterCount());
		return new QueueDescriptor("redis", intOrNull(shared.queued()), reading.depthByPriority(),
				reading.depthByFairnessKey(), intOrNull(shared.waiting()), queue.isShuttingDown(),
				count("workqueue.adds", name), completions(name), count("workqueue.retries", name),
				queue.rateLimiter().toString(), workers, shared, recent, deadLetterCount, offset,
				listed(letters, offset));
	}

	private static List<DeadLetter> matching(List<DeadLetter> letters, @Nullable String search) {
		if (search == null || search.isBlank()) {
			return letters;
		}
		String wanted = search.strip().toLowerCase(Locale.ROOT);
		return letters.stream().filter((letter) -> letter.item().toLowerCase(Locale.ROOT).contains(wanted)).toList();
	}

	/** A page of dead letters, as the endpoint lists them. */
	private static List<DeadLetterDescriptor> listed(List<DeadLetter> letters, int offset) {
		return letters.stream()
			.skip(offset)
			.limit(MOST_DEAD_LETTERS_LISTED)
			.map((letter) -> new DeadLetterDescriptor(letter.item(), letter.reason(), letter.attempts(),
					letter.lastError(), (letter.at() != null) ? letter.at().toEpochMilli() : null))
			.toList();
	}

	/**
	 * The items this instance's workers process, the longest running first, at most 100.
	 */
	private static List<ProcessingDescriptor> processing(QueueWorkerContainer container) {
		return container.processing()
			.stream()
			.limit(MOST_PROCESSING_LISTED)
			.map((item) -> new ProcessingDescriptor(String.valueOf(item.item()), item.age().toMillis() / 1000.0))
			.toList();
	}

	private static @Nullable Integer intOrNull(@Nullable Long value) {
		return (value != null) ? (int) (long) value : null;
	}

	private @Nullable Long completions(String name) {
		if (this.meterRegistry == null) {
			return null;
		}
		Timer timer = this.meterRegistry.find("workqueue.work.duration").tag("name", name).timer();
		return (timer != null) ? timer.count() : null;
	}

	private @Nullable Long count(String meter, String name) {
		if (this.meterRegistry == null) {
			return null;
		}
		Counter counter = this.meterRegistry.find(meter).tag("name", name).counter();
		return (counter != null) ? (long) counter.count() : null;
	}

	/**
	 * All queues.
	 *
	 * @param queues the queues by name
	 */
	public record QueuesDescriptor(Map<String, QueueDescriptor> queues) {

	}

	/**
	 * One queue.
	 *
	 * @param backend {@code "memory"} or {@code "redis"}
	 * @param depth items queued; {@code null} for a Redis queue never read yet while
	 * Redis cannot be reached
	 * @param depthByPriority items queued per priority, highest first
	 * @param depthByFairnessKey items queued per first fairness key, empty without
	 * fairness
	 * @param waiting items waiting for a delay; {@code null} as {@code depth}
	 * @param shuttingDown whether the queue is shutting down
	 * @param adds adds since start, when metrics are on
	 * @param completions items this instance has finished ({@code done}) since start,
	 * when metrics are on
	 * @param retries delayed and rate-limited adds since start, when metrics are on
	 * @param rateLimiter the rate limiter
	 * @param workers the workers, if the queue has a {@code @QueueWorker}
	 * @param shared what Redis holds, if the queue is shared on Redis
	 * @param recent this instance's recent rates and latencies, oldest first, when asked
	 * for and sampled
	 * @param deadLetterCount the items kept as dead letters (given up by the workers, and
	 * on Redis parked), or those that match the search
	 * @param deadLettersOffset how many of them, newest first, come before the first
	 * listed
	 * @param deadLetters the listed ones, at most 100 from the offset, newest first
	 */
	public record QueueDescriptor(String backend, @Nullable Integer depth, Map<Integer, Integer> depthByPriority,
			Map<String, Integer> depthByFairnessKey, @Nullable Integer waiting, boolean shuttingDown,
			@Nullable Long adds, @Nullable Long completions, @Nullable Long retries, String rateLimiter,
			@Nullable WorkersDescriptor workers, @Nullable SharedDescriptor shared, @Nullable List<RateSample> recent,
			long deadLetterCount, int deadLettersOffset, List<DeadLetterDescriptor> deadLetters) {

	}

	/**
	 * An item that left its queue without success.
	 *
	 * @param item the item, as stored (Redis) or as text: the key to requeue or drop it
	 * by
	 * @param reason why it left
	 * @param attempts the attempts made, 0 where not counted (parked)
	 * @param lastError the last failure's class and message, or {@code null}
	 * @param atMillis when it left, in milliseconds since the epoch, or {@code null}
	 * where not recorded (parked)
	 */
	public record DeadLetterDescriptor(String item, String reason, int attempts, @Nullable String lastError,
			@Nullable Long atMillis) {

	}

	/**
	 * A queue shared on Redis, as Redis sees it: queue-wide figures, every instance's
	 * leases and the parked items. While Redis cannot be reached, the last figures read
	 * (none if it never was), with why and since when; the figures are then {@code null}
	 * if none were read before.
	 *
	 * @param instance how this instance appears as a lease holder
	 * @param shards how many shards the queue is spread over
	 * @param queued items ready and not taken
	 * @param waiting items waiting for their ready time
	 * @param inFlight items under a lease, on any instance
	 * @param redeliveries items delivered again after their lease expired
	 * @param rejectedDones {@code done} calls refused because the lease had expired
	 * @param leases the items under a lease, with their holders
	 * @param parked parked items (as stored) with the reason
	 * @param unreachable why the figures could not be read now, or {@code null} if they
	 * were
	 * @param unreachableSinceMillis since when (epoch milliseconds) they could not be
	 * read, or {@code null}
	 * @param pausedEverywhere the queue-wide pause, or {@code null} if the queue is not
	 * paused on every instance
	 * @param instances the instances serving the queue, from their heartbeats
	 */
	public record SharedDescriptor(@Nullable String instance, int shards, @Nullable Long queued, @Nullable Long waiting,
			@Nullable Long inFlight, @Nullable Long redeliveries, @Nullable Long rejectedDones,
			List<LeaseDescriptor> leases, Map<String, String> parked, @Nullable String unreachable,
			@Nullable Long unreachableSinceMillis, @Nullable PauseDescriptor pausedEverywhere,
			List<InstanceDescriptor> instances) {

	}

	/**
	 * An instance serving a Redis queue, from its last heartbeat.
	 *
	 * @param holder how it appears as a lease holder
	 * @param inFlight the items its threads hold leases on
	 * @param waitingInGet its threads waiting in {@code get}
	 * @param leasedAhead the items it leased ahead of them
	 * @param lastSeenSecondsAgo how long ago it wrote its heartbeat (it writes one a
	 * second), on this instance's clock
	 */
	public record InstanceDescriptor(String holder, int inFlight, int waitingInGet, int leasedAhead,
			double lastSeenSecondsAgo) {

	}

	/**
	 * A Redis queue paused on every instance.
	 *
	 * @param by who paused it
	 * @param sinceMillis since when, in milliseconds since the epoch
	 */
	public record PauseDescriptor(String by, long sinceMillis) {

	}

	/**
	 * This instance's rates and latencies over one sample interval, from its meters.
	 *
	 * @param time when the interval ended, in milliseconds since the epoch
	 * @param addsPerSecond adds per second
	 * @param completionsPerSecond items finished ({@code done}) per second
	 * @param retriesPerSecond delayed and rate-limited adds per second
	 * @param queueLatencyP50 median seconds items waited before a {@code get}, with the
	 * bucket it was estimated in, or {@code null} if none was taken
	 * @param queueLatencyP99 99th percentile of the same
	 * @param workDurationP50 median seconds from {@code get} to {@code done}, with its
	 * bucket, or {@code null} if none finished
	 * @param workDurationP99 99th percentile of the same
	 * @param depth the queue's depth at the sample (queue-wide for a Redis queue, as last
	 * read from Redis), or {@code null} if not known
	 * @param oldestReadySeconds how long the oldest ready item had waited since its add
	 * ({@code workqueue.oldest.ready.item}), or {@code null} if not known (Redis queues)
	 */
	public record RateSample(long time, double addsPerSecond, double completionsPerSecond, double retriesPerSecond,
			@Nullable Estimate queueLatencyP50, @Nullable Estimate queueLatencyP99, @Nullable Estimate workDurationP50,
			@Nullable Estimate workDurationP99, @Nullable Double depth, @Nullable Double oldestReadySeconds) {

	}

	/**
	 * A quantile estimated from a histogram's buckets, and the bucket it fell in: a
	 * reader shows a range, or "below" and "above" at the edges, rather than a made-up
	 * value.
	 *
	 * @param value the estimate in seconds: interpolated within the bucket, the lowest
	 * bound when below it, the recent maximum (or the highest bound) when above every
	 * bound
	 * @param lower the bucket's lower end in seconds, or {@code null} below the lowest
	 * bound
	 * @param upper the bucket's upper end in seconds (lowered to the recent maximum), or
	 * {@code null} above the highest bound with no maximum known
	 */
	public record Estimate(double value, @Nullable Double lower, @Nullable Double upper) {

	}

	/**
	 * An item under a lease.
	 *
	 * @param item the item as stored
	 * @param holder the instance holding it
	 * @param leaseAgeSeconds how long it has been held, on Redis's clock
	 * @param expiresInSeconds how long until the lease expires unless renewed
	 */
	public record LeaseDescriptor(String item, String holder, double leaseAgeSeconds, double expiresInSeconds) {

	}

	/**
	 * The workers of a queue.
	 *
	 * @param method the worker method
	 * @param configured the number of worker threads
	 * @param live worker threads alive
	 * @param replaced worker threads that ended unexpectedly and were replaced
	 * @param processing items being processed
	 * @param paused whether the workers are paused
	 * @param longestRunningSeconds age of the oldest item being processed
	 * @param stuckAfterSeconds the processing time after which an item counts as stuck
	 * ({@code workqueue.health.stuck-threshold}), or {@code null} if not set
	 * @param outcomes what happened to the processed items
	 * @param items the items being processed, the longest running first (at most 100)
	 */
	public record WorkersDescriptor(String method, int configured, int live, long replaced, int processing,
			boolean paused, double longestRunningSeconds, @Nullable Double stuckAfterSeconds,
			QueueWorkerContainer.Outcomes outcomes, List<ProcessingDescriptor> items) {

	}

	/**
	 * An item this instance's workers are processing.
	 *
	 * @param item the item, as text
	 * @param ageSeconds how long it has been processing, on the container's clock
	 */
	public record ProcessingDescriptor(String item, double ageSeconds) {

	}

}
