package io.github.workqueue.autoconfigure.metrics;

import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.SmartLifecycle;

import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.spring.internal.DefaultQueueWorkerRegistry;

/**
 * Worker metrics, read from the containers when scraped:
 * {@code workqueue_worker_outcomes_total} (tags {@code name}, {@code outcome}: success,
 * retry, given_up, unfinished_at_shutdown), {@code workqueue_workers_live},
 * {@code workqueue_workers_paused}, {@code workqueue_dead_letters_dropped_total} and, for
 * a queue whose dead letters the container keeps in the process (in-memory queues),
 * {@code workqueue_dead_letters} (a queue shared on Redis reports its queue-wide
 * {@code workqueue_shared_dead_letters} instead, from the figures it reads). Registered
 * once the containers exist, right after the worker registry starts.
 */
public class QueueWorkerMetrics implements SmartLifecycle {

	private final QueueWorkerRegistry workers;

	private final MeterRegistry registry;

	private volatile boolean running;

	public QueueWorkerMetrics(QueueWorkerRegistry workers, MeterRegistry registry) {
		this.workers = workers;
		this.registry = registry;
	}

	@Override
	public void start() {
		for (QueueWorkerContainer container : this.workers.getContainers()) {
			outcome(container, "success", (c) -> c.outcomes().succeeded());
			outcome(container, "retry", (c) -> c.outcomes().retried());
			outcome(container, "given_up", (c) -> c.outcomes().givenUp());
			outcome(container, "unfinished_at_shutdown", (c) -> c.outcomes().unfinishedAtShutdown());
			Gauge.builder("workqueue.workers.live", container, QueueWorkerContainer::liveWorkers)
				.description("Worker threads of the queue alive now")
				.tag("name", container.queueName())
				.register(this.registry);
			FunctionCounter.builder("workqueue.workers.replaced", container, QueueWorkerContainer::replacedWorkers)
				.description("Worker threads that ended unexpectedly and were replaced")
				.tag("name", container.queueName())
				.register(this.registry);
			Gauge.builder("workqueue.workers.paused", container, (c) -> c.isPaused() ? 1 : 0)
				.description("1 while the queue's workers are paused")
				.tag("name", container.queueName())
				.register(this.registry);
			deadLetters(container);
		}
		this.running = true;
	}

	private void deadLetters(QueueWorkerContainer container) {
		FunctionCounter
			.builder("workqueue.dead.letters.dropped", container, (c) -> c.deadLetters().deadLettersDropped())
			.description("Dead letters dropped, the oldest first, to keep the store within its bound")
			.tag("name", container.queueName())
			.register(this.registry);
		if (!(container.deadLetters() instanceof RateLimitingQueue<?>)) {
			Gauge.builder("workqueue.dead.letters", container, (c) -> c.deadLetters().deadLetterCount())
				.description("Items kept as dead letters: given up by the queue's workers")
				.tag("name", container.queueName())
				.register(this.registry);
		}
	}

	private void outcome(QueueWorkerContainer container, String outcome, ToLongFunction<QueueWorkerContainer> count) {
		FunctionCounter.builder("workqueue.worker.outcomes", container, (c) -> count.applyAsLong(c))
			.description("Items processed by the queue's workers, by outcome")
			.tag("name", container.queueName())
			.tag("outcome", outcome)
			.register(this.registry);
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return DefaultQueueWorkerRegistry.PHASE + 1;
	}

}
