package io.github.workqueue.autoconfigure.actuate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.workqueue.autoconfigure.actuate.RateSample;
import io.github.workqueue.autoconfigure.metrics.MicrometerMetricsProvider;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * The dashboard's history, sampled from the meters a real queue records on a fake clock:
 * rates are the change over the interval, quantiles come from the interval's observations
 * only, old samples fall off.
 */
class RecentRatesTest {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final FakeClock clock = new FakeClock();

	private final RateLimitingQueue<String> queue = WorkQueue.builder()
		.name("orders")
		.clock(this.clock)
		.metricsProvider(new MicrometerMetricsProvider(this.registry))
		.buildRateLimiting();

	/** A queue without meters. */
	private final RateLimitingQueue<String> absent = WorkQueue.builder()
		.name("absent")
		.clock(this.clock)
		.buildRateLimiting();

	private final RecentRates rates = new RecentRates(this.registry,
			() -> Map.of("orders", this.queue, "absent", this.absent), Duration.ofSeconds(2), Duration.ofSeconds(6));

	@Test
	void theFirstSampleShouldOnlyReadTheMeters() {
		this.queue.add("a");
		this.rates.sample(1_000);
		assertThat(this.rates.since("orders", 0)).isEmpty();
	}

	@Test
	void ratesShouldBeTheChangeOverTheInterval() throws InterruptedException {
		this.rates.sample(1_000);
		for (int i = 0; i < 10; i++) {
			this.queue.add("item-" + i);
		}
		process(4, Duration.ofMillis(30));
		this.rates.sample(3_000);
		RateSample sample = this.rates.since("orders", 0).get(0);
		assertThat(sample.time()).isEqualTo(3_000);
		assertThat(sample.addsPerSecond()).isEqualTo(5.0);
		assertThat(sample.completionsPerSecond()).isEqualTo(2.0);
		assertThat(sample.retriesPerSecond()).isZero();
		// 30ms of work falls in client-go's (10ms, 100ms] bucket: interpolated within it.
		assertThat(sample.workDurationP50().value()).isBetween(0.01, 0.1);
		assertThat(sample.workDurationP99().value()).isBetween(sample.workDurationP50().value(), 0.1);
		assertThat(sample.workDurationP50().lower()).isEqualTo(0.01);
	}

	@Test
	void quantilesShouldOnlyCoverTheIntervalsOwnObservations() throws InterruptedException {
		this.queue.add("slow");
		process(1, Duration.ofSeconds(5));
		this.rates.sample(1_000);
		this.queue.add("fast");
		process(1, Duration.ofNanos(500));
		this.rates.sample(3_000);
		RateSample sample = this.rates.since("orders", 0).get(0);
		assertThat(sample.workDurationP99().value()).as("the 5s item was before this interval").isLessThan(1e-6);
		this.rates.sample(5_000);
		assertThat(this.rates.since("orders", 3_000)).singleElement()
			.satisfies((idle) -> assertThat(idle.workDurationP50()).as("nothing finished").isNull());
	}

	@Test
	void samplesShouldSpanAtMostTheHistoryAndSkipAClockThatWentBack() {
		for (long time = 0; time <= 10_000; time += 2_000) {
			this.rates.sample(time);
		}
		this.rates.sample(9_000);
		assertThat(this.rates.since("orders", 0)).extracting(RateSample::time).containsExactly(6_000L, 8_000L, 10_000L);
		assertThat(this.rates.since("orders", 8_000)).extracting(RateSample::time).containsExactly(10_000L);
		assertThat(this.rates.since("absent", 0)).extracting(RateSample::addsPerSecond)
			.allSatisfy((rate) -> assertThat(rate).isZero());
	}

	@Test
	void ratesShouldBePerSecondOfTheActualInterval() {
		this.rates.sample(1_000);
		this.queue.add("x");
		this.rates.sample(2_000);
		assertThat(this.rates.since("orders", 0)).singleElement()
			.satisfies((sample) -> assertThat(sample.addsPerSecond()).isCloseTo(1.0, within(1e-9)));
	}

	@Test
	void readersShouldOnlySeeWholeHistoriesInTimeOrderWhileSamplesAreTaken() throws Exception {
		AtomicBoolean sampling = new AtomicBoolean(true);
		AtomicReference<String> violation = new AtomicReference<>();
		Thread sampler = new Thread(() -> {
			for (long time = 0; time <= 200_000; time += 2_000) {
				this.queue.add("item-" + time);
				this.rates.sample(time);
			}
			sampling.set(false);
		});
		Thread[] readers = new Thread[2];
		for (int r = 0; r < readers.length; r++) {
			readers[r] = new Thread(() -> {
				while (sampling.get()) {
					List<RateSample> seen;
					try {
						seen = this.rates.since("orders", 0);
					}
					catch (RuntimeException ex) {
						violation.set("read failed: " + ex);
						return;
					}
					for (int i = 1; i < seen.size(); i++) {
						if (seen.get(i).time() <= seen.get(i - 1).time()) {
							violation.set("out of order: " + seen);
						}
					}
					if (seen.size() > 3) {
						violation.set("more than the history: " + seen.size());
					}
				}
			});
			readers[r].start();
		}
		sampler.start();
		sampler.join();
		for (Thread reader : readers) {
			reader.join();
		}
		assertThat(violation.get()).isNull();
		assertThat(this.rates.since("orders", 0)).extracting(RateSample::time)
			.containsExactly(196_000L, 198_000L, 200_000L);
	}

	@Test
	void theDepthShouldBeTheQueuesLengthOverEveryPriorityAsTheEndpointCountsIt() {
		this.rates.sample(1_000);
		this.queue.add("low", AddOptions.priority(0));
		this.queue.add("high", AddOptions.priority(5));
		this.queue.add("higher", AddOptions.priority(9));
		this.rates.sample(3_000);
		assertThat(this.rates.since("orders", 0)).singleElement()
			.satisfies((sample) -> assertThat(sample.depth()).isEqualTo(3.0));
		assertThat(this.rates.since("absent", 0)).singleElement()
			.satisfies((sample) -> assertThat(sample.depth()).as("no meters, still a length").isZero());
	}

	@Test
	void aSlowDepthReadShouldHoldUpNoRequestForTheHistory() throws Exception {
		CountDownLatch reading = new CountDownLatch(1);
		CountDownLatch answer = new CountDownLatch(1);
		AtomicBoolean slow = new AtomicBoolean();
		// The queue as a slow Redis answers len(): the sampler waits in it.
		@SuppressWarnings("unchecked")
		RateLimitingQueue<String> slowToAnswer = (RateLimitingQueue<String>) Proxy.newProxyInstance(
				getClass().getClassLoader(), new Class<?>[] { RateLimitingQueue.class }, (proxy, method, args) -> {
					if (method.getName().equals("len") && slow.get()) {
						reading.countDown();
						answer.await();
					}
					try {
						return method.invoke(this.queue, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
		RecentRates history = new RecentRates(this.registry, () -> Map.of("orders", slowToAnswer),
				Duration.ofSeconds(2), Duration.ofSeconds(6));
		history.sample(1_000);
		history.sample(3_000);
		slow.set(true);
		CompletableFuture<Void> sampling = CompletableFuture.runAsync(() -> history.sample(5_000));
		assertThat(reading.await(10, TimeUnit.SECONDS)).as("the sampler reads the depth").isTrue();
		List<RateSample> during = CompletableFuture.supplyAsync(() -> history.since("orders", 0))
			.get(10, TimeUnit.SECONDS);
		assertThat(during).as("answered while the depth read waits").hasSize(1);
		answer.countDown();
		sampling.get(10, TimeUnit.SECONDS);
		assertThat(history.since("orders", 0)).hasSize(2);
	}

	@Test
	void anIntervalLongerThanTheHistoryShouldBeRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RecentRates(this.registry, Map::of, Duration.ofMinutes(2), Duration.ofMinutes(1)))
			.withMessageContaining("sample interval");
	}

	private void process(int items, Duration each) throws InterruptedException {
		for (int i = 0; i < items; i++) {
			String item = this.queue.get().orElseThrow();
			this.clock.step(each);
			this.queue.done(item);
		}
	}

}
