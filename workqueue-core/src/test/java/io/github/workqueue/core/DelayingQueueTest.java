package io.github.workqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.metrics.DropReason;
import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;

class DelayingQueueTest {

	private final FakeClock clock = new FakeClock();

	private final RecordingMetricsProvider metrics = new RecordingMetricsProvider();

	private final DelayingQueue<String> queue = WorkQueue.builder()
		.name("delayed")
		.clock(this.clock)
		.metricsProvider(this.metrics)
		.buildDelaying();

	@Test
	void addAfterShouldAddOnceTheDelayPassed() throws InterruptedException {
		this.queue.addAfter("foo", Duration.ofMillis(50));
		assertThat(this.queue.len()).isZero();
		assertThat(this.queue.waitingLen()).isEqualTo(1);
		this.clock.step(Duration.ofMillis(49));
		assertThat(this.queue.len()).isZero();
		this.clock.step(Duration.ofMillis(1));
		assertThat(this.queue.len()).isEqualTo(1);
		assertThat(this.queue.waitingLen()).isZero();
		assertThat(this.queue.get()).contains("foo");
		this.queue.done("foo");
		this.clock.step(Duration.ofSeconds(60));
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void secondAddAfterShouldKeepTheEarlierReadyTime() {
		this.queue.addAfter("foo", Duration.ofMillis(50));
		this.queue.addAfter("foo", Duration.ofMillis(70));
		assertThat(this.queue.waitingLen()).isEqualTo(1);
		this.clock.step(Duration.ofMillis(60));
		assertThat(this.queue.len()).isEqualTo(1);
		drain();
		this.clock.step(Duration.ofMillis(20));
		assertThat(this.queue.len()).as("the later entry was not kept").isZero();

		this.queue.addAfter("foo", Duration.ofMillis(70));
		this.queue.addAfter("foo", Duration.ofMillis(50));
		this.clock.step(Duration.ofMillis(60));
		assertThat(this.queue.len()).as("the earlier time replaced the later").isEqualTo(1);
		drain();
		this.clock.step(Duration.ofMillis(20));
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void itemsShouldBecomeReadyInReadyTimeOrder() {
		this.queue.addAfter("foo", Duration.ofSeconds(1));
		this.queue.addAfter("bar", Duration.ofMillis(500));
		this.queue.addAfter("baz", Duration.ofMillis(750));
		this.queue.addAfter("qux", Duration.ofMillis(250));
		assertThat(this.queue.len()).isZero();
		this.clock.step(Duration.ofSeconds(2));
		assertThat(drain()).containsExactly("qux", "bar", "baz", "foo");
	}

	@Test
	void equalReadyTimesShouldKeepInsertionOrder() {
		for (int i = 0; i < 20; i++) {
			this.queue.addAfter("item-" + i, Duration.ofMillis(100));
		}
		this.clock.step(Duration.ofMillis(100));
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			expected.add("item-" + i);
		}
		assertThat(drain()).containsExactlyElementsOf(expected);
	}

	@Test
	void earlierEntryShouldFireFirstWhenAddedLater() {
		this.queue.addAfter("foo", Duration.ofSeconds(1));
		this.queue.addAfter("bar", Duration.ofMillis(50));
		this.clock.step(Duration.ofMillis(60));
		assertThat(drain()).containsExactly("bar");
		this.clock.step(Duration.ofSeconds(1));
		assertThat(drain()).containsExactly("foo");
	}

	@Test
	void addShouldSupersedeAWaitingEntry() {
		this.queue.addAfter("foo", Duration.ofSeconds(10));
		this.queue.add("foo");
		assertThat(this.queue.len()).isEqualTo(1);
		assertThat(this.queue.waitingLen()).isZero();
		assertThat(drain()).containsExactly("foo");
		this.clock.step(Duration.ofSeconds(11));
		assertThat(this.queue.len()).as("not run a second time").isZero();
	}

	@Test
	void addOfADirtyItemShouldStillSupersedeItsWaitingEntry() {
		this.queue.add("foo");
		this.queue.addAfter("foo", Duration.ofSeconds(10));
		assertThat(this.queue.waitingLen()).isEqualTo(1);
		this.queue.add("foo");
		assertThat(this.queue.waitingLen()).isZero();
		assertThat(drain()).containsExactly("foo");
		this.clock.step(Duration.ofSeconds(11));
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void addAfterOfAnItemBeingProcessedShouldRunItAgainAfterTheDelay() throws InterruptedException {
		this.queue.add("foo");
		this.queue.get();
		this.queue.addAfter("foo", Duration.ofSeconds(1));
		this.clock.step(Duration.ofSeconds(1));
		assertThat(this.queue.len()).as("still processing").isZero();
		this.queue.done("foo");
		assertThat(drain()).containsExactly("foo");
	}

	@Test
	void zeroOrNegativeDelayShouldAddNow() {
		this.queue.addAfter("zero", Duration.ZERO);
		this.queue.addAfter("negative", Duration.ofSeconds(-1));
		assertThat(this.queue.waitingLen()).isZero();
		assertThat(drain()).containsExactly("zero", "negative");
	}

	@Test
	void hugeDelayShouldNotOverflow() throws InterruptedException {
		FakeClock ownClock = new FakeClock();
		DelayingQueue<String> unnamed = WorkQueue.builder().clock(ownClock).buildDelaying();
		unnamed.addAfter("far", Duration.ofSeconds(Long.MAX_VALUE));
		unnamed.addAfter("near", Duration.ofMillis(1));
		ownClock.step(Duration.ofDays(365 * 100));
		assertThat(unnamed.len()).isEqualTo(1);
		assertThat(unnamed.get()).contains("near");
		assertThat(unnamed.waitingLen()).isEqualTo(1);
	}

	@Test
	void manyWaitingItemsShouldAllArriveAndNoneBeDropped() {
		int count = 100_000;
		for (int i = 0; i < count; i++) {
			this.queue.addAfter(Integer.toString(i), Duration.ofMillis(1 + (i * 7919L) % 10_000));
		}
		assertThat(this.queue.waitingLen()).isEqualTo(count);
		this.clock.step(Duration.ofSeconds(10));
		assertThat(this.queue.len()).isEqualTo(count);
		assertThat(this.queue.waitingLen()).isZero();
	}

	@Test
	void shutDownShouldDiscardAndCountWaitingItems() throws InterruptedException {
		this.queue.addAfter("a", Duration.ofSeconds(1));
		this.queue.addAfter("b", Duration.ofSeconds(2));
		this.queue.add("c");
		this.queue.shutDown();
		assertThat(this.queue.waitingLen()).isZero();
		assertThat(this.metrics.dropped("delayed", DropReason.WAITING_AT_SHUTDOWN)).isEqualTo(2);
		assertThat(this.metrics.waiting("delayed")).isZero();
		this.clock.step(Duration.ofSeconds(5));
		assertThat(this.queue.get()).contains("c");
		assertThat(this.queue.get()).isEmpty();
		assertThat(this.clock.pendingTimers()).isZero();
	}

	@Test
	void shutDownShouldTellWhichWaitingItemsItDiscardedInReadyTimeOrder() {
		assertThat(this.queue.discardedAtShutdown()).isEmpty();
		this.queue.addAfter("late", Duration.ofSeconds(30));
		this.queue.addAfter("early", Duration.ofSeconds(10));
		this.queue.addAfter("due", Duration.ofSeconds(1));
		this.clock.step(Duration.ofSeconds(1));
		this.queue.shutDown();
		assertThat(this.queue.discardedAtShutdown()).as("the due item was queued, not discarded")
			.containsExactly("early", "late");
		assertThat(this.queue.len()).isOne();
	}

	@Test
	void removeShouldBeCountedAsDroppedAndLowerTheGauges() throws InterruptedException {
		this.queue.add("a");
		this.queue.add("b");
		this.queue.addAfter("c", Duration.ofSeconds(1));
		assertThat(this.queue.remove("a")).isTrue();
		assertThat(this.queue.remove("c")).isTrue();
		assertThat(this.queue.remove("a")).isFalse();
		assertThat(this.metrics.dropped("delayed", DropReason.REMOVED)).isEqualTo(2);
		assertThat(this.metrics.depth("delayed")).isEqualTo(1.0);
		assertThat(this.metrics.waiting("delayed")).isZero();
		assertThat(this.queue.get()).contains("b");
	}

	@Test
	void addAfterAfterShutDownShouldBeDroppedAndCounted() {
		this.queue.shutDown();
		this.queue.addAfter("a", Duration.ofSeconds(1));
		this.queue.addAfter("b", Duration.ZERO);
		this.queue.add("c");
		assertThat(this.queue.waitingLen()).isZero();
		assertThat(this.queue.len()).isZero();
		assertThat(this.metrics.dropped("delayed", DropReason.ADD_AFTER_SHUTDOWN)).isEqualTo(3);
	}

	private List<String> drain() {
		List<String> items = new ArrayList<>();
		try {
			while (this.queue.len() > 0) {
				String item = this.queue.get().orElseThrow();
				items.add(item);
				this.queue.done(item);
			}
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		return items;
	}

}
