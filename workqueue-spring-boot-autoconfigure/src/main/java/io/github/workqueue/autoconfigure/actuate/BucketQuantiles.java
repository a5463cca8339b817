package io.github.workqueue.autoconfigure.actuate;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import org.jspecify.annotations.Nullable;

import io.github.workqueue.autoconfigure.actuate.Estimate;

/**
 * Quantiles of the observations a histogram took between two readings of its buckets,
 * estimated as Prometheus's {@code histogram_quantile} does: find the bucket that holds
 * the rank and interpolate linearly within it; a rank above the highest bound gives that
 * bound. One refinement: a bucket's upper bound is lowered to the timer's recent maximum
 * when that is smaller, so that work of 1.5s, all in client-go's (1s, 10s] bucket, reads
 * 1.25s at p50 instead of 5.5s. With client-go's buckets (powers of ten) the estimate is
 * otherwise within a bucket's factor of ten. Each estimate keeps the bucket it fell in
 * ({@link Estimate}), so that a reader can show a range, or "below" the lowest bound and
 * "above" the highest, rather than a made-up precise value.
 */
final class BucketQuantiles {

	private BucketQuantiles() {
	}

	/**
	 * Reads a timer's buckets.
	 * @param timer the timer, or {@code null} if it is not registered (yet)
	 * @return the buckets, or {@code null} if there are none
	 */
	static @Nullable Buckets buckets(@Nullable Timer timer) {
		if (timer == null) {
			return null;
		}
		HistogramSnapshot snapshot = timer.takeSnapshot();
		CountAtBucket[] counts = snapshot.histogramCounts();
		if (counts.length == 0) {
			return null;
		}
		double[] bounds = new double[counts.length];
		double[] cumulative = new double[counts.length];
		for (int i = 0; i < counts.length; i++) {
			bounds[i] = counts[i].bucket(TimeUnit.SECONDS);
			cumulative[i] = counts[i].count();
		}
		long total = snapshot.count();
		if (snapshot.max(TimeUnit.SECONDS) <= bounds[bounds.length - 1]) {
			// Nothing recent was above the highest bound: a count ahead of the buckets is
			// an
			// observation being recorded right now, not one above them.
			total = (long) cumulative[cumulative.length - 1];
		}
		return new Buckets(bounds, cumulative, total, snapshot.max(TimeUnit.SECONDS));
	}

	/**
	 * Estimates a quantile of what was observed between two readings.
	 * @param now the later reading
	 * @param before the earlier reading
	 * @param quantile from 0 to 1
	 * @return the quantile in seconds with its bucket, or {@code null} if nothing was
	 * observed in between or the histogram started over (its counts fell)
	 */
	static @Nullable Estimate of(@Nullable Buckets now, @Nullable Buckets before, double quantile) {
		if (now == null) {
			return null;
		}
		int size = now.cumulative.length;
		double[] cumulative = new double[size];
		double total = now.total - ((before != null) ? before.total : 0);
		for (int i = 0; i < size; i++) {
			cumulative[i] = now.cumulative[i]
					- ((before != null && before.cumulative.length == size) ? before.cumulative[i] : 0);
			if (cumulative[i] < 0) {
				return null;
			}
		}
		if (total <= 0 || total < cumulative[size - 1]) {
			return null;
		}
		double rank = quantile * total;
		for (int i = 0; i < size; i++) {
			if (cumulative[i] >= rank) {
				if (i == 0) {
					// Under the lowest bound: nothing more is known.
					return new Estimate(now.bounds[0], null, now.bounds[0]);
				}
				double lower = now.bounds[i - 1];
				double below = cumulative[i - 1];
				double upper = (now.max > lower) ? Math.min(now.bounds[i], now.max) : now.bounds[i];
				double inBucket = cumulative[i] - below;
				double value = (inBucket <= 0) ? upper : lower + (upper - lower) * (rank - below) / inBucket;
				return new Estimate(value, lower, upper);
			}
		}
		// Above every bound: only that is known, and it is drawn at the bound ("> 10 s"),
		// not at the recent maximum, which may be one outlier's.
		double highest = now.bounds[size - 1];
		return new Estimate(highest, highest, null);
	}

	/**
	 * One reading of a histogram.
	 *
	 * @param bounds the buckets' upper bounds in seconds, increasing
	 * @param cumulative observations at or under each bound
	 * @param total all observations, including those above the highest bound
	 * @param max the largest observation of the timer's recent window, in seconds, or 0
	 */
	record Buckets(double[] bounds, double[] cumulative, long total, double max) {

	}

}
