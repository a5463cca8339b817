package io.github.workqueue.core;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The memory queue's priorities and fairness beyond the rules that PriorityContractTest
 * (in workqueue-redis) runs on both backends: the fairness bound at scale, the
 * default priority, and the FIFO's return once a second priority is gone.
 */
class PriorityQueueTest {

	private final FakeClock clock = new FakeClock();

	@Test
	void aKeyWithManyReadyItemsShouldDelayTheOthersByOneItemPerActiveKey() throws InterruptedException {
		RateLimitingQueue<String> queue = WorkQueue.builder()
			.clock(this.clock)
			.fairness((String item) -> List.of(item.substring(0, item.indexOf('/'))))
			.buildRateLimiting();
		for (int i = 0; i < 100_000; i++) {
			queue.add("big/" + i);
		}
		for (int key = 0; key < 9; key++) {
			for (int i = 0; i < 10; i++) {
				queue.add("small" + key + "/" + i);
			}
		}
		int worst = 0;
		int smallSeen = 0;
		for (int position = 1; smallSeen < 90; position++) {
			String item = queue.get(Duration.ZERO).orElseThrow();
			if (item.startsWith("small")) {
				smallSeen++;
				worst = position;
			}
			queue.done(item);
		}
		assertThat(worst).as("the last small item's position among the gets").isLessThanOrEqualTo(100);
		assertThat(queue.len()).isEqualTo(100_000 - (100 - 90));
	}

	@Test
	void theDefaultPriorityShouldApplyToEveryAddThatNamesNone() throws InterruptedException {
		RateLimitingQueue<String> queue = WorkQueue.builder().clock(this.clock).defaultPriority(3).buildRateLimiting();
		queue.add("a");
		queue.addAfter("b", Duration.ZERO);
		queue.add("c", AddOptions.priority(4));
		queue.addRateLimited("d");
		this.clock.step(Duration.ofSeconds(1));
		assertThat(queue.lenByPriority()).containsExactly(java.util.Map.entry(4, 1), java.util.Map.entry(3, 3));
		assertThat(queue.getWithPriority(Duration.ZERO)).contains(new PrioritizedItem<>("c", 4));
		assertThat(queue.getWithPriority(Duration.ZERO)).contains(new PrioritizedItem<>("a", 3));
		assertThat(queue.defaultPriority()).isEqualTo(3);
	}

	@Test
	void theQueueShouldBeAFifoAgainOnceOnePriorityIsLeft() throws InterruptedException {
		RecordingMetricsProvider metrics = new RecordingMetricsProvider();
		RateLimitingQueue<String> queue = WorkQueue.builder()
			.name("levels")
			.clock(this.clock)
			.metricsProvider(metrics)
			.buildRateLimiting();
		queue.add("a");
		queue.add("b", AddOptions.priority(1));
		assertThat(queue.get(Duration.ZERO)).contains("b");
		assertThat(queue.get(Duration.ZERO)).contains("a");
		queue.add("c", AddOptions.priority(2));
		queue.add("d", AddOptions.priority(2));
		queue.add("e", AddOptions.priority(2));
		assertThat(queue.lenByPriority()).containsExactly(java.util.Map.entry(2, 3));
		assertThat(List.of(queue.get(Duration.ZERO).orElseThrow(), queue.get(Duration.ZERO).orElseThrow(),
				queue.get(Duration.ZERO).orElseThrow()))
			.containsExactly("c", "d", "e");
		assertThat(metrics.depth("levels")).isZero();
	}

	@Test
	void aShutDownQueueShouldStillHandOutItsItemsByPriority() throws InterruptedException {
		RateLimitingQueue<String> queue = WorkQueue.builder().clock(this.clock).buildRateLimiting();
		queue.add("low", AddOptions.priority(-1));
		queue.add("high", AddOptions.priority(1));
		queue.shutDown();
		queue.add("late", AddOptions.priority(9));
		assertThat(queue.get()).contains("high");
		assertThat(queue.get()).contains("low");
		assertThat(queue.get()).isEmpty();
	}

	@Test
	void anExtractorThatReturnsNullShouldBeNamedInTheError() {
		RateLimitingQueue<String> queue = WorkQueue.builder()
			.name("tenants")
			.clock(this.clock)
			.fairness((String item) -> null)
			.buildRateLimiting();
		assertThatIllegalStateException().isThrownBy(() -> queue.add("a"))
			.withMessageContaining("fairness key extractor of workqueue 'tenants' returned null for a");
	}

}
