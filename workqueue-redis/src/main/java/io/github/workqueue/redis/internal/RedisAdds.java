package io.github.workqueue.redis.internal;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.internal.AddAllItems;
import io.github.workqueue.core.trace.TraceCapture;
import io.github.workqueue.core.trace.TraceCarry;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

import io.github.workqueue.redis.internal.shared.LimiterSpec;

import io.github.workqueue.redis.internal.batch.BatchRequest;
import io.github.workqueue.redis.internal.batch.Batcher;

/**
 * Every way an item is added to a shared queue: plain and prioritised adds ride in the
 * batches ({@link Batcher}), one at a time or many together; delayed and rate-limited
 * adds run a script of their own ({@link ScriptedAdds}). An add after this instance began
 * to shut down is dropped, counted and logged. The metrics count an add that made its
 * item dirty, and a delayed or rate-limited add as a retry.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: it keeps no state of its own.
 *
 * @param <T> the type of the items
 */
final class RedisAdds<T> {

	private static final System.Logger logger = System.getLogger(RedisQueue.class.getName());

	private static final ObjectMapper JSON = new ObjectMapper();

	private final String name;

	private final ItemCodec<T> codec;

	private final Batcher batcher;

	private final ScriptedAdds scripted;

	private final @Nullable RedisQueueMetrics metrics;

	private final int defaultPriority;

	private final @Nullable FairnessKeyExtractor<? super T> fairness;

	/**
	 * Default priority 0 and no fairness: delayed and rate-limited adds that name no
	 * priority run the scripts without priorities.
	 */
	private final boolean plain;

	private final BooleanSupplier shuttingDown;

	/** Reads each add's trace context; null: no tracing, nothing read or stored. */
	private final @Nullable TraceCapture traceCapture;

	/** The threads that run the scripted adds whose callers do not wait. */
	private final Executor helpers;

	/**
	 * Room for scripted adds whose callers do not wait, each on a helper thread until
	 * answered: a full room makes the next caller wait.
	 */
	private final Semaphore scriptedRoom = new Semaphore(SCRIPTED_IN_FLIGHT);

	/**
	 * The most scripted adds (delayed, rate-limited) an instance runs without waiting.
	 */
	static final int SCRIPTED_IN_FLIGHT = 16;

	record Setup<T>(String name, ItemCodec<T> codec, @Nullable RedisQueueMetrics metrics, int defaultPriority,
			@Nullable FairnessKeyExtractor<? super T> fairness, @Nullable TraceCapture traceCapture) {
	}

	/**
	 * @param shuttingDown whether this instance is shutting down
	 */
	RedisAdds(Setup<T> setup, Batcher batcher, ScriptedAdds scripted, BooleanSupplier shuttingDown, Executor helpers) {
		this.helpers = helpers;
		this.name = setup.name();
		this.codec = setup.codec();
		this.metrics = setup.metrics();
		this.defaultPriority = setup.defaultPriority();
		this.fairness = setup.fairness();
		this.traceCapture = setup.traceCapture();
		this.plain = this.defaultPriority == 0 && this.fairness == null;
		this.batcher = batcher;
		this.scripted = scripted;
		this.shuttingDown = shuttingDown;
	}

	/** See {@link RedisQueue#addAll(Collection)}. */
	void addAll(Collection<? extends T> items) {
		addAllNow(AddAllItems.checked(items), this.defaultPriority);
	}

	/** See {@link DefaultRedisQueue#addAll(Collection, AddOptions)}. */
	void addAll(Collection<? extends T> items, AddOptions options) {
		Objects.requireNonNull(options, "options");
		List<T> checked = AddAllItems.checked(items);
		if (delayMicros(options.delay()) > 0 || options.isRateLimited()) {
			checked.forEach((item) -> add(item, options));
		}
		else {
			addAllNow(checked, options.priorityOr(this.defaultPriority));
		}
	}

	/** Adds the items at the priority together, in the next batches. */
	private void addAllNow(List<T> items, int priority) {
		List<BatchRequest.Add> requests = new ArrayList<>(items.size());
		String trace = TraceCarry.ofAdd(this.traceCapture);
		for (T item : items) {
			String encoded = encode(item);
			if (!droppedAfterShutdown(item)) {
				requests.add(this.batcher.request(encoded, priority, fairnessJson(item), trace));
			}
		}
		if (!requests.isEmpty()) {
			RedisQueueMetrics counted = this.metrics;
			this.batcher.addAll(requests, (counted != null) ? counted::added : () -> {
			});
		}
	}

	/**
	 * Adds with options: without a delay or rate-limiting in the next batch, otherwise by
	 * a script of its own ({@code addWith.lua}), counted as a retry.
	 * @return the delay used, zero when the add was dropped
	 */
	Duration add(T item, AddOptions options) {
		Objects.requireNonNull(options, "options");
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return Duration.ZERO;
		}
		String trace = TraceCarry.ofAdd(this.traceCapture);
		long delayMicros = delayMicros(options.delay());
		int priority = options.priorityOr(this.defaultPriority);
		if (delayMicros == 0 && !options.isRateLimited()) {
			boolean made = this.batcher.add(this.batcher.request(encoded, priority, fairnessJson(item), trace));
			if (made && this.metrics != null) {
				this.metrics.added();
			}
			return Duration.ZERO;
		}
		if (this.metrics != null) {
			this.metrics.retried();
		}
		List<Long> made = this.scripted.addWith(encoded, priority, fairnessJson(item), delayMicros,
				options.isRateLimited(), trace);
		if (made.get(0) == 1 && made.get(1) <= 0 && this.metrics != null) {
			this.metrics.added();
		}
		return Duration.ofNanos(Math.max(0, made.get(1)) * 1000);
	}

	/**
	 * See {@link RedisQueue#addAsync(Object, AddOptions)}: without a delay or
	 * rate-limiting in the next batch, otherwise on a helper thread.
	 */
	CompletionStage<Void> addAsync(T item, AddOptions options) {
		Objects.requireNonNull(options, "options");
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return CompletableFuture.completedFuture(null);
		}
		if (delayMicros(options.delay()) > 0 || options.isRateLimited()) {
			String trace = TraceCarry.ofAdd(this.traceCapture);
			return scriptedAsync(() -> withTrace(trace, () -> add(item, options))).thenApply((delay) -> null);
		}
		int priority = options.priorityOr(this.defaultPriority);
		RedisQueueMetrics counted = this.metrics;
		return this.batcher.addAsync(encoded, priority, fairnessJson(item), TraceCarry.ofAdd(this.traceCapture))
			.thenApply((made) -> {
				if (made && counted != null) {
					counted.added();
				}
				return null;
			});
	}

	/** See {@link RedisQueue#addAfterAsync}. */
	CompletionStage<Void> addAfterAsync(T item, Duration delay) {
		Objects.requireNonNull(item, "item");
		Objects.requireNonNull(delay, "delay");
		String trace = TraceCarry.ofAdd(this.traceCapture);
		return scriptedAsync(() -> withTrace(trace, () -> {
			addAfter(item, delay);
			return null;
		}));
	}

	/** See {@link RedisQueue#addRateLimitedAsync}. */
	CompletionStage<Duration> addRateLimitedAsync(T item) {
		Objects.requireNonNull(item, "item");
		String trace = TraceCarry.ofAdd(this.traceCapture);
		return scriptedAsync(() -> withTrace(trace, () -> addRateLimited(item)));
	}

	/** Runs a scripted add on a helper thread, once the room has space for it. */
	private <R> CompletionStage<R> scriptedAsync(Supplier<R> add) {
		this.scriptedRoom.acquireUninterruptibly();
		CompletableFuture<R> outcome;
		try {
			outcome = CompletableFuture.supplyAsync(add, this.helpers);
		}
		catch (RuntimeException ex) {
			this.scriptedRoom.release();
			throw ex;
		}
		return outcome.whenComplete((result, failure) -> this.scriptedRoom.release());
	}

	/** See {@link RedisQueue#addAfter}. */
	void addAfter(T item, Duration delay) {
		Objects.requireNonNull(delay, "delay");
		if (!this.plain) {
			add(item, AddOptions.delay(delay));
			return;
		}
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return;
		}
		if (this.metrics != null) {
			this.metrics.retried();
		}
		long micros = delayMicros(delay);
		if (micros == 0) {
			add(item, AddOptions.defaults());
			return;
		}
		this.scripted.addAfter(encoded, micros, TraceCarry.ofAdd(this.traceCapture));
	}

	/** See {@link RedisQueue#addRateLimited}. */
	Duration addRateLimited(T item) {
		if (!this.plain) {
			return add(item, AddOptions.rateLimited());
		}
		String encoded = encode(item);
		if (droppedAfterShutdown(item)) {
			return Duration.ZERO;
		}
		if (this.metrics != null) {
			this.metrics.retried();
		}
		return this.scripted.addRateLimited(encoded, TraceCarry.ofAdd(this.traceCapture));
	}

	/**
	 * Runs an add on a helper thread with the context read on the caller's thread.
	 */
	private static <R> R withTrace(@Nullable String trace, Supplier<R> add) {
		return (trace != null) ? TraceCarry.carrying(trace, add) : add.get();
	}

	/** The item's fairness keys, as the extractor gives them. */
	List<String> fairnessKeysOf(T item) {
		return FairnessKeyExtractor.keysOf(this.fairness, item, this.name);
	}

	boolean hasFairness() {
		return this.fairness != null;
	}

	private String fairnessJson(T item) {
		return (this.fairness != null) ? JSON.writeValueAsString(fairnessKeysOf(item)) : "";
	}

	/** A delay in microseconds, a negative one as none. */
	private static long delayMicros(Duration delay) {
		return delay.isNegative() ? 0 : LimiterSpec.micros(delay);
	}

	private String encode(T item) {
		Objects.requireNonNull(item, "item");
		return this.codec.encode(item);
	}

	private boolean droppedAfterShutdown(T item) {
		if (!this.shuttingDown.getAsBoolean()) {
			return false;
		}
		if (this.metrics != null) {
			this.metrics.droppedAfterShutdown();
		}
		logger.log(Level.DEBUG,
				() -> "workqueue '" + this.name + "' is shutting down on this instance: dropped " + item);
		return true;
	}

}
