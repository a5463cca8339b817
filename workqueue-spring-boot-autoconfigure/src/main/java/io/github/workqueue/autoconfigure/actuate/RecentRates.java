package io.github.workqueue.autoconfigure.actuate;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.actuate.RateSample;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * The last minutes of each queue's rates and latencies, sampled from the meters the
 * metrics publish ({@code workqueue.adds}, {@code workqueue.retries} and the
 * {@code workqueue.queue.duration} and {@code workqueue.work.duration} histograms), so
 * that the dashboard can draw them the moment it opens, with the queue's depth at each
 * sample, read as the endpoint reads the figure beside the chart ({@code len()}: every
 * priority, and queue-wide from Redis for a Redis queue; none while Redis cannot be
 * reached, a gap in the chart). Each {@link #sample(long)} turns the change since the
 * previous one into a {@link RateSample}; quantiles come from the histograms' bucket
 * counts as Prometheus's {@code histogram_quantile} estimates them
 * ({@link BucketQuantiles}). The figures are this instance's: the meters count what this
 * instance did.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: {@link #sample(long)} (one sampling thread) and
 * {@link #since(String, long)} (endpoint requests) hold the instance's lock, briefly; the
 * depths are read before it is taken, so that a slow Redis holds up no endpoint request.
 * <b>Invariant:</b> each queue's samples are in increasing time order and span at most
 * the history.
 */
public final class RecentRates {

	private final MeterRegistry registry;

	private final Supplier<? extends Map<String, ? extends RateLimitingQueue<?>>> queues;

	private final int capacity;

	private final Map<String, Previous> previous = new HashMap<>();

	private final Map<String, ArrayDeque<RateSample>> samples = new HashMap<>();

	/**
	 * Creates an empty history.
	 * @param registry where the queues' meters are
	 * @param queues the queues to sample, by name
	 * @param interval how often {@link #sample(long)} runs
	 * @param history how far back to keep samples
	 */
	public RecentRates(MeterRegistry registry, Supplier<? extends Map<String, ? extends RateLimitingQueue<?>>> queues,
			Duration interval, Duration history) {
		if (interval.isNegative() || interval.isZero() || history.compareTo(interval) < 0) {
			throw new IllegalArgumentException("The sample interval must be positive and at most the history, were "
					+ interval + " and " + history);
		}
		this.registry = registry;
		this.queues = queues;
		this.capacity = (int) Math.min(100_000, history.toMillis() / interval.toMillis());
	}

	/**
	 * Records one sample of every queue: the rates and quantiles since the previous one.
	 * A queue's first call only reads its meters.
	 * @param nowMillis the time of the sample, in milliseconds since the epoch
	 */
	public void sample(long nowMillis) {
		Map<String, @Nullable Integer> depths = new HashMap<>();
		this.queues.get().forEach((name, queue) -> depths.put(name, SharedQueueView.depthNow(queue)));
		record(nowMillis, depths);
	}

	private synchronized void record(long nowMillis, Map<String, @Nullable Integer> depths) {
		for (Map.Entry<String, @Nullable Integer> depth : depths.entrySet()) {
			String name = depth.getKey();
			Previous before = this.previous.get(name);
			if (before != null && nowMillis <= before.millis) {
				// The clock went back: wait until it passes the last sample again.
				continue;
			}
			Previous current = read(name, nowMillis);
			this.previous.put(name, current);
			if (before == null) {
				continue;
			}
			double seconds = (current.millis - before.millis) / 1000.0;
			RateSample sample = new RateSample(nowMillis, rate(current.adds, before.adds, seconds),
					rate(current.completions, before.completions, seconds),
					rate(current.retries, before.retries, seconds),
					BucketQuantiles.of(current.latency, before.latency, 0.5),
					BucketQuantiles.of(current.latency, before.latency, 0.99),
					BucketQuantiles.of(current.work, before.work, 0.5),
					BucketQuantiles.of(current.work, before.work, 0.99),
					(depth.getValue() != null) ? depth.getValue().doubleValue() : null, oldestReady(name));
			ArrayDeque<RateSample> queue = this.samples.computeIfAbsent(name, (n) -> new ArrayDeque<>());
			queue.addLast(sample);
			while (queue.size() > this.capacity) {
				queue.removeFirst();
			}
		}
	}

	/**
	 * Returns a queue's samples taken after a time, oldest first.
	 * @param name the queue
	 * @param afterMillis only samples later than this, in milliseconds since the epoch
	 * @return the samples, empty if none
	 */
	public synchronized List<RateSample> since(String name, long afterMillis) {
		ArrayDeque<RateSample> queue = this.samples.get(name);
		if (queue == null) {
			return List.of();
		}
		return queue.stream().filter((sample) -> sample.time() > afterMillis).toList();
	}

	private Previous read(String name, long millis) {
		Timer latency = this.registry.find("workqueue.queue.duration").tag("name", name).timer();
		Timer work = this.registry.find("workqueue.work.duration").tag("name", name).timer();
		return new Previous(millis, count("workqueue.adds", name), (work != null) ? work.count() : 0,
				count("workqueue.retries", name), BucketQuantiles.buckets(latency), BucketQuantiles.buckets(work));
	}

	/** The age of the queue's oldest ready item; {@code null} without the gauge. */
	private @Nullable Double oldestReady(String name) {
		Gauge oldest = this.registry.find("workqueue.oldest.ready.item").tag("name", name).gauge();
		return (oldest != null) ? oldest.value() : null;
	}

	private double count(String meter, String name) {
		Counter counter = this.registry.find(meter).tag("name", name).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static double rate(double now, double before, double seconds) {
		// A meter removed and registered again starts from zero: count it from there.
		double delta = (now >= before) ? now - before : now;
		return delta / seconds;
	}

	private record Previous(long millis, double adds, double completions, double retries,
			BucketQuantiles.@Nullable Buckets latency, BucketQuantiles.@Nullable Buckets work) {

	}

}
