package io.github.workqueue.autoconfigure.actuate;

import org.jspecify.annotations.Nullable;

/**
 * A quantile estimated from a histogram's buckets, and the bucket it fell in: a reader
 * shows a range, or "below" and "above" at the edges, rather than a made-up value.
 *
 * @param value the estimate in seconds: interpolated within the bucket, the lowest bound
 * when below it, the highest bound when above every bound (saturated: "more than")
 * @param lower the bucket's lower end in seconds, or {@code null} below the lowest bound
 * @param upper the bucket's upper end in seconds (lowered to the recent maximum), or
 * {@code null} above the highest bound
 */
public record Estimate(double value, @Nullable Double lower, @Nullable Double upper) {

}
