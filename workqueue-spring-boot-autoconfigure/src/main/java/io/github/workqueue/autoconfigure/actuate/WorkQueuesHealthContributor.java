package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;

/**
 * {@code workqueues} in the health, one component per queue
 * ({@code /actuator/health/workqueues/<queue>}, which health groups can name as
 * {@code workqueues/<queue>}): DOWN when a running queue's worker threads died, when
 * Redis cannot be reached for a queue shared on Redis, or, if
 * {@code workqueue.health.stuck-threshold} is set, when an item has been processing
 * longer than that. Each queue's details: its problem if any, and its workers.
 * <p>
 * <b>Bounded.</b> Spring Boot asks the queues one after the other; the first one asked
 * reads every queue at once (Redis queues in parallel, about two seconds at most, none
 * while an instance already knows Redis is down), and the others of the same pass get
 * their part of that reading, so the whole answer takes one bound, not one per queue. A
 * queue asked again, or more than {@link #PASS} after the reading, is read afresh.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the readings left for the pass are guarded by this
 * object's monitor, which a reading holds (concurrent health requests wait for it rather
 * than read Redis twice).
 */
public class WorkQueuesHealthContributor implements CompositeHealthContributor {

	/** How long the queues of one reading are answered from it. */
	static final Duration PASS = Duration.ofSeconds(1);

	private final QueueWorkerRegistry workers;

	private final WorkQueueRegistry queues;

	private final @Nullable Duration stuckThreshold;

	private final SharedQueueView sharedView = new SharedQueueView();

	/** How long the queues of one reading are answered from it. */
	private final long passNanos;

	/** The queues of the last reading not asked yet; guarded by this. */
	private final Map<String, Health> unasked = new HashMap<>();

	/** When the last reading began ({@link System#nanoTime()}); guarded by this. */
	private long readAt;

	public WorkQueuesHealthContributor(QueueWorkerRegistry workers, WorkQueueRegistry queues,
			@Nullable Duration stuckThreshold) {
		this(workers, queues, stuckThreshold, PASS);
	}

	/** With another pass length, for tests that must not depend on the wall clock. */
	WorkQueuesHealthContributor(QueueWorkerRegistry workers, WorkQueueRegistry queues,
			@Nullable Duration stuckThreshold, Duration pass) {
		this.workers = workers;
		this.queues = queues;
		this.stuckThreshold = stuckThreshold;
		this.passNanos = pass.toNanos();
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		return names().contains(name) ? indicator(name) : null;
	}

	@Override
	public Stream<HealthContributors.Entry> stream() {
		return names().stream().map((name) -> new HealthContributors.Entry(name, indicator(name)));
	}

	private SortedSet<String> names() {
		SortedSet<String> names = new TreeSet<>(this.queues.getQueues().keySet());
		this.workers.getContainers().forEach((container) -> names.add(container.queueName()));
		return names;
	}

	private HealthIndicator indicator(String name) {
		return () -> health(name);
	}

	/** One queue's health, from the pass's reading or a new one. */
	synchronized Health health(String name) {
		Health left = this.unasked.remove(name);
		if (left != null && System.nanoTime() - this.readAt < this.passNanos) {
			return left;
		}
		this.readAt = System.nanoTime();
		Map<String, Health> all = readAll();
		this.unasked.clear();
		this.unasked.putAll(all);
		Health health = this.unasked.remove(name);
		return (health != null) ? health : Health.unknown().withDetail("problem", "no such queue").build();
	}

	/** Every queue's health, Redis queues read in parallel within one bound. */
	private Map<String, Health> readAll() {
		Map<String, Health.Builder> builders = new TreeMap<>();
		for (QueueWorkerContainer container : this.workers.getContainers()) {
			String problem = problem(container);
			Health.Builder builder = ((problem != null) ? Health.down().withDetail("problem", problem) : Health.up())
				.withDetail("workers", container.workers())
				.withDetail("liveWorkers", container.liveWorkers())
				.withDetail("replacedWorkers", container.replacedWorkers())
				.withDetail("paused", container.isPaused())
				.withDetail("longestRunningSeconds", container.longestRunning().toMillis() / 1000.0);
			builders.put(container.queueName(), builder);
		}
		Map<String, RateLimitingQueue<?>> all = this.queues.getQueues();
		this.sharedView.startReads(all.values());
		long deadline = System.nanoTime() + SharedQueueView.BOUND.toNanos();
		for (Map.Entry<String, RateLimitingQueue<?>> queue : all.entrySet()) {
			String problem = this.sharedView.problem(queue.getValue(), deadline);
			Health.Builder builder = builders.computeIfAbsent(queue.getKey(), (name) -> Health.up());
			if (problem != null) {
				builder.down().withDetail("problem", problem);
			}
		}
		Map<String, Health> healths = new HashMap<>();
		builders.forEach((name, builder) -> healths.put(name, builder.build()));
		return healths;
	}

	private @Nullable String problem(QueueWorkerContainer container) {
		if (!container.isRunning()) {
			return null;
		}
		if (container.liveWorkers() < container.workers()) {
			return "workers stopped unexpectedly: " + container.liveWorkers() + " of " + container.workers() + " alive";
		}
		if (this.stuckThreshold != null && container.longestRunning().compareTo(this.stuckThreshold) > 0) {
			return "an item has been processing for " + container.longestRunning().toSeconds()
					+ "s, over the stuck threshold of " + this.stuckThreshold;
		}
		return null;
	}

}
