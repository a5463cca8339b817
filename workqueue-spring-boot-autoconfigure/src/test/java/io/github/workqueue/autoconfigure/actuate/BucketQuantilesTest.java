package io.github.workqueue.autoconfigure.actuate;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.workqueue.autoconfigure.actuate.BucketQuantiles.Buckets;
import io.github.workqueue.autoconfigure.actuate.Estimate;
import io.github.workqueue.autoconfigure.metrics.MicrometerMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Quantiles estimated from bucket counts the way Prometheus's histogram_quantile does.
 */
class BucketQuantilesTest {

	private static final double[] BOUNDS = { 0.001, 0.01, 0.1, 1 };

	@Test
	void aQuantileShouldBeInterpolatedWithinItsBucket() {
		// 10 observations: 2 under 1ms, 8 in (1ms, 10ms].
		Buckets now = new Buckets(BOUNDS, new double[] { 2, 10, 10, 10 }, 10, 0);
		assertThat(BucketQuantiles.of(now, null, 0.1)).as("below the lowest bound: no made-up value")
			.isEqualTo(new Estimate(0.001, null, 0.001));
		Estimate p60 = BucketQuantiles.of(now, null, 0.6);
		assertThat(p60.value()).isCloseTo(0.001 + 0.009 * 4 / 8, within(1e-12));
		assertThat(p60.lower()).isEqualTo(0.001);
		assertThat(p60.upper()).isEqualTo(0.01);
	}

	@Test
	void aBucketShouldEndAtTheRecentMaximumWhenThatIsLower() {
		// Ten observations of about 1.5s, all in (1s, 10s]: not 5.5s at p50.
		double[] bounds = { 0.1, 1, 10 };
		Buckets now = new Buckets(bounds, new double[] { 0, 0, 10 }, 10, 1.5);
		assertThat(BucketQuantiles.of(now, null, 0.5).value()).isCloseTo(1.25, within(1e-12));
		assertThat(BucketQuantiles.of(now, null, 0.99).upper()).isEqualTo(1.5);
		Buckets above = new Buckets(bounds, new double[] { 0, 0, 1 }, 2, 30);
		assertThat(BucketQuantiles.of(above, null, 0.99))
			.as("above every bound: more than the highest, whatever the maximum")
			.isEqualTo(new Estimate(10.0, 10.0, null));
	}

	@Test
	void onlyTheObservationsSinceTheEarlierReadingShouldCount() {
		Buckets before = new Buckets(BOUNDS, new double[] { 0, 0, 0, 100 }, 100, 0);
		Buckets now = new Buckets(BOUNDS, new double[] { 4, 4, 4, 104 }, 104, 0);
		assertThat(BucketQuantiles.of(now, before, 0.99).value()).isLessThanOrEqualTo(0.001);
	}

	@Test
	void aRankAboveTheHighestBoundShouldGiveThatBound() {
		Buckets now = new Buckets(BOUNDS, new double[] { 0, 0, 0, 1 }, 3, 0);
		assertThat(BucketQuantiles.of(now, null, 0.99)).isEqualTo(new Estimate(1.0, 1.0, null));
	}

	@Test
	void anObservationAboveTheHighestBoundShouldCountOnlyWhenOneWasRecorded() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new MicrometerMetricsProvider(registry).newWorkDurationMetric("q").observe(0.5);
		Timer timer = registry.find("workqueue.work.duration").timer();
		Buckets within = BucketQuantiles.buckets(timer);
		assertThat(within.total()).isEqualTo(1);
		new MicrometerMetricsProvider(registry).newWorkDurationMetric("q").observe(20);
		Buckets above = BucketQuantiles.buckets(timer);
		assertThat(above.total()).isEqualTo(2);
		assertThat(BucketQuantiles.of(above, within, 0.5)).as("saturated at the highest bound")
			.satisfies((estimate) -> assertThat(estimate.upper()).isNull());
	}

	@Test
	void noObservationsOrAHistogramThatStartedOverShouldGiveNothing() {
		Buckets before = new Buckets(BOUNDS, new double[] { 1, 2, 3, 4 }, 4, 0);
		assertThat(BucketQuantiles.of(before, before, 0.5)).isNull();
		Buckets fewer = new Buckets(BOUNDS, new double[] { 0, 0, 1, 1 }, 5, 0);
		assertThat(BucketQuantiles.of(fewer, before, 0.5)).isNull();
		assertThat(BucketQuantiles.of(null, before, 0.5)).isNull();
	}

}
