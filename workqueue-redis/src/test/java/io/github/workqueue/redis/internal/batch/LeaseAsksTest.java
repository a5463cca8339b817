package io.github.workqueue.redis.internal.batch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which takers {@link LeaseAsks} still counts as waiting. */
class LeaseAsksTest {

	private final LeaseAsks asks = new LeaseAsks(1, 1_000_000_000L);

	@Test
	void aTakerThatWaitsBehindOnesThatStoppedShouldStillCount() {
		Taker cancelled = new Taker();
		Taker served = new Taker();
		Taker waiting = new Taker();
		this.asks.waitFor(cancelled, 0);
		this.asks.waitFor(served, 0);
		this.asks.waitFor(waiting, 0);
		cancelled.cancel();
		served.claim(new Grant(0, "item", 1, 0, 0, 0, 0, null));

		assertThat(this.asks.any()).isTrue();
		assertThat(this.asks.count()).isEqualTo(1);
	}

	@Test
	void takersThatAllStoppedWaitingShouldCountAsNone() {
		Taker first = new Taker();
		Taker second = new Taker();
		this.asks.waitFor(first, 0);
		this.asks.waitFor(second, 0);
		first.cancel();
		second.cancel();

		assertThat(this.asks.any()).isFalse();
		assertThat(this.asks.count()).isZero();
	}

}
