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

import org.springframework.boot.actuate.endpoint.Access;
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
 * <p>
 * Read-only by default: its write operation pauses queues on every instance, removes keys
 * and drops or requeues dead letters in bulk, work lost or redone by a mistaken request,
 * so it is opened only by {@code management.endpoint.workqueues.access=unrestricted}, as
 * Spring Boot keeps its own {@code shutdown} endpoint closed until asked. Its reads stay
 * on, as {@code loggers}' do, for monitoring.
 */
@Endpoint(id = "workqueues", defaultAccess = Access.READ_ONLY)
public class WorkQueuesEndpoint {

	private static final int MOST_PROCESSING_LISTED = 100;

	private static final int MOST_DEAD_LETTERS_LISTED = 100;

	private final WorkQueueRegistry queues;

	private final QueueWorkerRegistry workers;

	private final @Nullable MeterRegistry meterRegistry;

	private final @Nullable RecentRates recentRates;

	private final SharedQueueView sharedView = new SharedQueueView();

	private final @Nullable Double stuckAfterSeconds;

	private final List<QueueDetailsContributor> contributors;

	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry) {
		this(queues, workers, meterRegistry, null);
	}

	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry, @Nullable RecentRates recentRates) {
		this(queues, workers, meterRegistry, recentRates, null, List.of());
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
	 * @param contributors what other modules add to each queue's description
	 */
	public WorkQueuesEndpoint(WorkQueueRegistry queues, QueueWorkerRegistry workers,
			@Nullable MeterRegistry meterRegistry, @Nullable RecentRates recentRates, @Nullable Duration stuckThreshold,
			List<QueueDetailsContributor> contributors) {
		this.queues = queues;
		this.workers = workers;
		this.meterRegistry = meterRegistry;
		this.recentRates = recentRates;
		this.stuckAfterSeconds = (stuckThreshold != null) ? stuckThreshold.toMillis() / 1000.0 : null;
		this.contributors = List.copyOf(contributors);
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
		long time = System.currentTimeMillis();
		Map<String, RateLimitingQueue<?>> queues = this.queues.getQueues();
		this.sharedView.startReads(queues.values());
		long deadline = System.nanoTime() + SharedQueueView.BOUND.toNanos();
		queues.forEach((name, queue) -> all.put(name, describe(name, queue, since, deadline)));
		return new QueuesDescriptor(all, time);
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
		return changeWorkers(name, action, item, null, null, null, null, null);
	}

	/**
	 * Changes a queue: {@code pause} or {@code resume} this instance's workers;
	 * {@code pause-everywhere} or {@code resume-everywhere} a Redis queue on every
	 * instance; {@code remove} a queued or waiting {@code item} (one being processed is
	 * not queued again at its {@code done}); {@code requeue-parked} or
	 * {@code drop-parked} a parked {@code item}; {@code requeue-dead-letter} or
	 * {@code drop-dead-letter} a dead letter's {@code item}, or with {@code "*"} every
	 * dead letter that matches {@code search} (all when it is empty), only if they are
	 * exactly the {@code count} the operator confirmed and the newest of them is still
	 * {@code newest} (given up at {@code newestAt}, when sent), both required: otherwise
	 * nothing is changed, and the refusal says how many match now.
	 * @param name the queue
	 * @param action what to do
	 * @param item the parked item or dead letter, or {@code "*"}
	 * @param search for {@code "*"}: the text the dead letters' items contain (ignoring
	 * case), or empty for all
	 * @param count for {@code "*"}: how many dead letters the operator saw match
	 * @param newest for {@code "*"}: the item of the newest of them (required)
	 * @param newestAt for {@code "*"}: when the newest of them was given up, in
	 * milliseconds since the epoch, as listed ({@code atMillis}), if known
	 * @param principal who asks, if known: named as who paused a queue everywhere
	 * @return the queue, changed
	 */
	@WriteOperation
	public QueueDescriptor changeWorkers(@Selector String name, String action, @Nullable String item,
			@Nullable String search, @Nullable Integer count, @Nullable String newest, @Nullable Long newestAt,
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
			return changeDeadLetters(name, queue, verb.equals("requeue-dead-letter"), item,
					new DeadLetterChoice(search, count, newest, newestAt));
		}
		if (verb.equals("remove")) {
			return remove(name, queue, item);
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
							+ "\"resume-everywhere\", \"remove\", \"requeue-dead-letter\", \"drop-dead-letter\", "
							+ "\"requeue-parked\" or \"drop-parked\"",
					"Unknown action");
		}
		return describe(name, queue, null);
	}

	/**
	 * Takes a key out of a queue ({@code remove}): queued or waiting, or due to run again
	 * after its processing.
	 * @throws InvalidEndpointRequestException if the item is missing or nothing was
	 * removed
	 */
	private QueueDescriptor remove(String name, RateLimitingQueue<?> queue, @Nullable String item) {
		if (item == null || item.isEmpty()) {
			throw new InvalidEndpointRequestException(
					"Missing \"item\": send the key to remove, as the in-flight list shows it", "Missing item");
		}
		boolean removed = SharedQueueView.isShared(queue) ? SharedQueueView.removeEncoded(queue, item)
				: removeInMemory(name, queue, item);
		if (!removed) {
			throw new InvalidEndpointRequestException("Nothing was removed: '" + item + "' is not queued, waiting "
					+ "or due to run again in queue '" + name + "' (a key being processed runs to its end)",
					"Nothing to remove");
		}
		return describe(name, queue, null);
	}

	/**
	 * Removes an in-memory queue's item named by its text: an item the workers process is
	 * matched by its text as listed, any other by equality with the text (a queue of
	 * strings).
	 */
	@SuppressWarnings("unchecked")
	private boolean removeInMemory(String name, RateLimitingQueue<?> queue, String item) {
		Object target = item;
		QueueWorkerContainer container = this.workers.getContainer(name);
		if (container != null) {
			for (QueueWorkerContainer.Processing processing : container.processing()) {
				if (String.valueOf(processing.item()).equals(item)) {
					target = processing.item();
					break;
				}
			}
		}
		return ((RateLimitingQueue<Object>) queue).remove(target);
	}

	/**
	 * Requeues or drops a dead letter, or, when the item is {@code "*"}, exactly the dead
	 * letters the operator chose ({@link DeadLetterChoice}), or none.
	 */
	private QueueDescriptor changeDeadLetters(String name, RateLimitingQueue<?> queue, boolean requeue,
			@Nullable String item, DeadLetterChoice choice) {
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
		List<String> items = item.equals("*") ? choice.chosen(name, letters) : List.of(item);
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
			List<DeadLetter> letters = DeadLetterChoice
				.matching((container != null) ? container.deadLetters().deadLetters() : List.of(), search);
			return new QueueDescriptor("memory", queue.len(), queue.lenByPriority(), queue.lenByFairnessKey(),
					queue.waitingLen(), queue.isShuttingDown(), count("workqueue.adds", name), completions(name),
					count("workqueue.retries", name), queue.rateLimiter().toString(), workers, null, recent,
					letters.size(), offset, listed(letters, offset), details(name));
		}
		// A Redis queue's figures were read together, within a bound (the last ones,
		// marked,
		// while Redis does not answer).
		SharedDescriptor shared = reading.shared();
		List<DeadLetter> letters = DeadLetterChoice.matching(reading.deadLetters(), search);
		long deadLetterCount = searched ? letters.size() : Math.max(letters.size(), reading.deadLetterCount());
		return new QueueDescriptor("redis", intOrNull(shared.queued()), reading.depthByPriority(),
				reading.depthByFairnessKey(), intOrNull(shared.waiting()), queue.isShuttingDown(),
				count("workqueue.adds", name), completions(name), count("workqueue.retries", name),
				queue.rateLimiter().toString(), workers, shared, recent, deadLetterCount, offset,
				listed(letters, offset), details(name));
	}

	private Map<String, Object> details(String name) {
		if (this.contributors.isEmpty()) {
			return Map.of();
		}
		Map<String, Object> details = new TreeMap<>();
		this.contributors.forEach((contributor) -> details.putAll(contributor.details(name)));
		return details;
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

}
