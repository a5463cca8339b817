package io.github.workqueue.core.backoff;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {

	@Test
	void stepShouldMultiplyUntilTheStepsRunOut() {
		Backoff backoff = new Backoff(Duration.ofMillis(10), 2, 0, 3, Duration.ZERO);
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(10));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(20));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(40));
		assertThat(backoff.steps()).isZero();
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(80));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(80));
	}

	@Test
	void capShouldStopGrowthAndUseUpTheSteps() {
		Backoff backoff = new Backoff(Duration.ofMillis(10), 3, 0, 10, Duration.ofMillis(50));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(10));
		assertThat(backoff.steps()).isEqualTo(9);
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(30));
		assertThat(backoff.steps()).as("30*3 > cap: steps set to 0").isZero();
		assertThat(backoff.duration()).isEqualTo(Duration.ofMillis(50));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(50));
	}

	@Test
	void zeroFactorShouldKeepTheDuration() {
		Backoff backoff = new Backoff(Duration.ofMillis(10), 0, 0, 5, Duration.ZERO);
		for (int i = 0; i < 7; i++) {
			assertThat(backoff.step()).isEqualTo(Duration.ofMillis(10));
		}
	}

	@Test
	void jitterShouldBeAddedToTheResultButNeverFeedBack() {
		Backoff backoff = new Backoff(Duration.ofMillis(100), 2, 0.5, 3, Duration.ZERO, () -> 0.5);
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(125));
		assertThat(backoff.duration()).isEqualTo(Duration.ofMillis(200));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(250));
		assertThat(backoff.step()).isEqualTo(Duration.ofMillis(500));
		assertThat(backoff.step()).as("no steps left, still jittered").isEqualTo(Duration.ofMillis(1000));
	}

	@Test
	void jitterOfZeroOrLessShouldMeanAFactorOfOne() {
		assertThat(Backoff.jitter(Duration.ofSeconds(1), 0, () -> 0.25)).isEqualTo(Duration.ofMillis(1250));
		assertThat(Backoff.jitter(Duration.ofSeconds(1), 2, () -> 0.25)).isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void hugeFactorShouldSaturateNotOverflow() {
		Backoff backoff = new Backoff(Duration.ofDays(365), 1e12, 0, 5, Duration.ZERO);
		backoff.step();
		assertThat(backoff.duration()).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
		assertThat(backoff.step()).isPositive();
	}

	@Test
	void exponentialManagerShouldResetAfterAQuietPeriod() {
		FakeClock clock = new FakeClock();
		BackoffManager manager = new ExponentialBackoffManager(Duration.ofMillis(10), Duration.ofMillis(100),
				Duration.ofSeconds(1), 2, 0, clock);
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(10));
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(20));
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(40));
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(80));
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(100));
		assertThat(manager.next()).as("capped, and never runs out of steps").isEqualTo(Duration.ofMillis(100));
		clock.step(Duration.ofSeconds(1));
		assertThat(manager.next()).as("exactly the reset period is not quiet enough").isEqualTo(Duration.ofMillis(100));
		clock.step(Duration.ofMillis(1001));
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(10));
		assertThat(manager.next()).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void jitteredManagerShouldStayWithinTheJitter() {
		BackoffManager manager = new JitteredBackoffManager(Duration.ofSeconds(1), 0.1);
		for (int i = 0; i < 100; i++) {
			assertThat(manager.next()).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1100));
		}
		assertThat(new JitteredBackoffManager(Duration.ofSeconds(1), 0).next()).isEqualTo(Duration.ofSeconds(1));
	}

}
