package io.github.workqueue.core.ratelimit;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RateLimitersTest {

	@Test
	void exponentialShouldDoubleFromTheBaseUpToTheMax() {
		RateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(1));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(2));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(4));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(8));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(16));
		assertThat(limiter.numRequeues("one")).isEqualTo(5);
		assertThat(limiter.when("two")).isEqualTo(Duration.ofMillis(1));
		assertThat(limiter.when("two")).isEqualTo(Duration.ofMillis(2));
		assertThat(limiter.numRequeues("two")).isEqualTo(2);
		limiter.forget("one");
		assertThat(limiter.numRequeues("one")).isZero();
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(1));
	}

	@Test
	void exponentialShouldStayAtTheMaxForAnyFailureCount() {
		RateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ofMillis(1), Duration.ofSeconds(1));
		for (int i = 1; i <= 10; i++) {
			limiter.when("x");
		}
		assertThat(limiter.when("x")).as("11th: 1024ms capped").isEqualTo(Duration.ofSeconds(1));
		for (int i = 12; i < 1000; i++) {
			assertThat(limiter.when("x")).as("failure %d", i).isEqualTo(Duration.ofSeconds(1));
		}
		assertThat(limiter.when("x")).isEqualTo(Duration.ofSeconds(1));
		assertThat(limiter.numRequeues("x")).isEqualTo(1000);
	}

	@Test
	void exponentialShouldNotWrapAroundAtSixtyFourFailures() {
		Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
		RateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ofNanos(1), huge);
		Duration previous = Duration.ZERO;
		for (int i = 1; i <= 200; i++) {
			Duration wait = limiter.when("x");
			assertThat(wait).as("failure %d", i).isGreaterThanOrEqualTo(previous);
			previous = wait;
		}
		assertThat(previous).isEqualTo(huge);
		RateLimiter<String> exact = new ExponentialFailureRateLimiter<>(Duration.ofNanos(1),
				Duration.ofNanos(Long.MAX_VALUE));
		for (int i = 1; i <= 63; i++) {
			assertThat(exact.when("y")).as("failure %d", i).isEqualTo(Duration.ofNanos(1L << (i - 1)));
		}
		assertThat(exact.when("y")).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
	}

	@Test
	void exponentialWithZeroBaseShouldNeverWait() {
		RateLimiter<String> limiter = new ExponentialFailureRateLimiter<>(Duration.ZERO, Duration.ofSeconds(1));
		for (int i = 0; i < 100; i++) {
			assertThat(limiter.when("x")).isZero();
		}
	}

	@Test
	void fastSlowShouldSwitchAfterTheFastAttempts() {
		RateLimiter<String> limiter = new FastSlowRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(10), 3);
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(10));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(10));
		assertThat(limiter.numRequeues("one")).isEqualTo(5);
		assertThat(limiter.when("two")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.numRequeues("two")).isEqualTo(1);
		limiter.forget("one");
		assertThat(limiter.numRequeues("one")).isZero();
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void bucketShouldStartFullThenSpaceTokensByOneOverQps() {
		FakeClock clock = new FakeClock();
		RateLimiter<String> limiter = new BucketRateLimiter<>(10, 2, clock);
		assertThat(limiter.when("a")).isZero();
		assertThat(limiter.when("b")).isZero();
		assertThat(limiter.when("c")).isEqualTo(Duration.ofMillis(100));
		assertThat(limiter.when("d")).isEqualTo(Duration.ofMillis(200));
		clock.step(Duration.ofMillis(300));
		assertThat(limiter.when("e")).isZero();
		clock.step(Duration.ofSeconds(10));
		assertThat(limiter.when("f")).as("refilled to the burst only").isZero();
		assertThat(limiter.when("g")).isZero();
		assertThat(limiter.when("h")).isEqualTo(Duration.ofMillis(100));
		assertThat(limiter.numRequeues("a")).isZero();
	}

	@Test
	void bucketShouldAcceptFractionalQps() {
		FakeClock clock = new FakeClock();
		RateLimiter<String> limiter = new BucketRateLimiter<>(0.5, 1, clock);
		assertThat(limiter.when("a")).isZero();
		assertThat(limiter.when("b")).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void maxOfShouldReturnTheLongestWait() {
		RateLimiter<String> limiter = new MaxOfRateLimiter<>(
				List.of(new ExponentialFailureRateLimiter<String>(Duration.ofMillis(1), Duration.ofSeconds(1)),
						new FastSlowRateLimiter<String>(Duration.ofMillis(5), Duration.ofSeconds(3), 3)));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(3));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(3));
		assertThat(limiter.numRequeues("one")).isEqualTo(5);
		limiter.forget("one");
		assertThat(limiter.numRequeues("one")).isZero();
		assertThat(limiter.when("one")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void withMaxWaitShouldCapTheWait() {
		RateLimiter<String> limiter = new WithMaxWaitRateLimiter<>(
				new ExponentialFailureRateLimiter<String>(Duration.ofMinutes(1), Duration.ofMinutes(10)),
				Duration.ofSeconds(30));
		assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(30));
		assertThat(limiter.numRequeues("one")).isEqualTo(1);
		limiter.forget("one");
		assertThat(limiter.numRequeues("one")).isZero();
		RateLimiter<String> loose = new WithMaxWaitRateLimiter<>(
				new ExponentialFailureRateLimiter<String>(Duration.ofMillis(1), Duration.ofMinutes(10)),
				Duration.ofSeconds(30));
		assertThat(loose.when("one")).isEqualTo(Duration.ofMillis(1));
	}

	@Test
	void controllerDefaultShouldBeExponentialFrom5msWithABucketOf100() {
		FakeClock clock = new FakeClock();
		RateLimiter<String> limiter = RateLimiters.controllerDefault(clock);
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
		for (int i = 0; i < 98; i++) {
			limiter.when("key-" + i);
		}
		assertThat(limiter.when("b")).as("burst of 100 used up").isEqualTo(Duration.ofMillis(100));
		for (int i = 0; i < 30; i++) {
			limiter.when("a");
		}
		assertThat(limiter.when("a")).as("capped at 1000s").isEqualTo(Duration.ofSeconds(1000));
	}

	@Test
	void invalidArgumentsShouldBeRejectedWithTheirName() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExponentialFailureRateLimiter<>(Duration.ofSeconds(2), Duration.ofSeconds(1)))
			.withMessageContaining("maxDelay");
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(0, 1, new FakeClock()))
			.withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(1, 0, new FakeClock()))
			.withMessageContaining("burst");
		assertThatIllegalArgumentException().isThrownBy(() -> new MaxOfRateLimiter<String>(List.of()))
			.withMessageContaining("at least one");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new FastSlowRateLimiter<>(Duration.ZERO, Duration.ZERO, -1))
			.withMessageContaining("maxFastAttempts");
	}

}
