package io.github.workqueue.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class WorkQueueTest {

	private final WorkQueue<String> queue = WorkQueue.builder().name("test").clock(new FakeClock()).build();

	@Test
	void addWhenQueuedShouldDeduplicate() throws InterruptedException {
		this.queue.add("a");
		this.queue.add("a");
		this.queue.add("b");
		this.queue.add("a");
		assertThat(this.queue.len()).isEqualTo(2);
		assertThat(this.queue.get()).contains("a");
		assertThat(this.queue.get()).contains("b");
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void getShouldReturnItemsInAddOrder() throws InterruptedException {
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			this.queue.add("item-" + i);
		}
		for (int i = 0; i < 10; i++) {
			String item = this.queue.get().orElseThrow();
			taken.add(item);
			this.queue.done(item);
		}
		assertThat(taken).containsExactly("item-0", "item-1", "item-2", "item-3", "item-4", "item-5", "item-6",
				"item-7", "item-8", "item-9");
	}

	@Test
	void addWhileProcessingShouldQueueAgainOnlyAfterDone() throws InterruptedException {
		this.queue.add("a");
		String item = this.queue.get().orElseThrow();
		this.queue.add("a");
		this.queue.add("a");
		assertThat(this.queue.len()).as("not queued while processing").isZero();
		assertThat(this.queue.get(Duration.ZERO)).as("no second worker gets it").isEmpty();
		this.queue.done(item);
		assertThat(this.queue.len()).isEqualTo(1);
		assertThat(this.queue.get()).contains("a");
		this.queue.done("a");
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void addAllShouldAddInOrderAsOneAddAfterAnother() throws InterruptedException {
		this.queue.add("c");
		this.queue.addAll(List.of("a", "b", "c", "a"));
		assertThat(this.queue.len()).isEqualTo(3);
		List<String> taken = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			taken.add(this.queue.get().orElseThrow());
		}
		assertThat(taken).containsExactly("c", "a", "b");
	}

	@Test
	void addAllWithANullItemShouldNameItsPositionAndAddNothing() {
		assertThatNullPointerException().isThrownBy(() -> this.queue.addAll(Arrays.asList("a", null)))
			.withMessageContaining("position 1");
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void doneOfItemNotProcessingShouldChangeNothing() throws InterruptedException {
		this.queue.done("never-added");
		assertThat(this.queue.len()).isZero();
		this.queue.add("a");
		this.queue.done("a");
		assertThat(this.queue.len()).as("queued item not duplicated by done").isEqualTo(1);
		String item = this.queue.get().orElseThrow();
		this.queue.done(item);
		this.queue.done(item);
		assertThat(this.queue.len()).isZero();
		assertThat(this.queue.get(Duration.ZERO)).isEmpty();
	}

	@Test
	void getAfterShutDownShouldReturnQueuedItemsThenReportShutdown() throws InterruptedException {
		this.queue.add("a");
		this.queue.add("b");
		this.queue.shutDown();
		assertThat(this.queue.isShuttingDown()).isTrue();
		assertThat(this.queue.get()).contains("a");
		assertThat(this.queue.get()).contains("b");
		assertThat(this.queue.get()).isEmpty();
		assertThat(this.queue.get(Duration.ofDays(1))).isEmpty();
	}

	@Test
	void addAfterShutDownShouldBeIgnored() throws InterruptedException {
		this.queue.shutDown();
		this.queue.add("a");
		assertThat(this.queue.len()).isZero();
		assertThat(this.queue.get()).isEmpty();
	}

	@Test
	void itemReAddedWhileProcessingBeforeShutDownShouldStillBeHandedOut() throws InterruptedException {
		this.queue.add("a");
		this.queue.get();
		this.queue.add("a");
		this.queue.shutDown();
		this.queue.done("a");
		assertThat(this.queue.get()).contains("a");
		assertThat(this.queue.get()).isEmpty();
	}

	@Test
	void shutDownShouldWakeBlockedGetters() throws Exception {
		List<CompletableFuture<Optional<String>>> getters = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			getters.add(CompletableFuture.supplyAsync(this::getUnchecked));
		}
		this.queue.shutDown();
		for (CompletableFuture<Optional<String>> getter : getters) {
			assertThat(getter.get(10, TimeUnit.SECONDS)).isEmpty();
		}
	}

	@Test
	void addShouldWakeBlockedGetter() throws Exception {
		CompletableFuture<Optional<String>> getter = CompletableFuture.supplyAsync(this::getUnchecked);
		this.queue.add("a");
		assertThat(getter.get(10, TimeUnit.SECONDS)).contains("a");
	}

	@Test
	void getWithTimeoutShouldReturnEmptyWhenNothingArrives() throws InterruptedException {
		assertThat(this.queue.get(Duration.ofMillis(1))).isEmpty();
		assertThat(this.queue.isShuttingDown()).isFalse();
	}

	@Test
	void shutDownWithDrainShouldWaitForItemsBeingProcessed() throws Exception {
		this.queue.add("a");
		this.queue.add("b");
		String first = this.queue.get().orElseThrow();
		CompletableFuture<Void> drain = CompletableFuture.runAsync(this::drainUnchecked);
		assertThatTimesOut(drain);
		assertThat(this.queue.get()).contains("b");
		this.queue.done(first);
		assertThatTimesOut(drain);
		this.queue.done("b");
		drain.get(10, TimeUnit.SECONDS);
		assertThat(this.queue.get()).isEmpty();
	}

	@Test
	void shutDownWithDrainShouldReturnWhenTheLastItemIsDoneWhileDirty() throws Exception {
		this.queue.add("a");
		String item = this.queue.get().orElseThrow();
		this.queue.add("a");
		CompletableFuture<Boolean> drain = CompletableFuture.supplyAsync(() -> {
			try {
				return this.queue.shutDownWithDrain(Duration.ofMinutes(5));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThatTimesOut(drain);
		this.queue.done(item);
		assertThat(drain.get(10, TimeUnit.SECONDS)).as("drained: nothing is processing").isTrue();
		assertThat(this.queue.get()).as("the re-added item is still handed out").contains("a");
	}

	@Test
	void shutDownShouldReleaseAWaitingDrain() throws Exception {
		this.queue.add("a");
		this.queue.get();
		CompletableFuture<Void> drain = CompletableFuture.runAsync(this::drainUnchecked);
		assertThatTimesOut(drain);
		this.queue.shutDown();
		drain.get(10, TimeUnit.SECONDS);
	}

	@Test
	void shutDownWithDrainTimeoutShouldTellWhetherItDrained() throws InterruptedException {
		this.queue.add("a");
		this.queue.get();
		assertThat(this.queue.shutDownWithDrain(Duration.ofMillis(20))).isFalse();
		this.queue.done("a");
		assertThat(this.queue.shutDownWithDrain(Duration.ofMillis(20))).isTrue();
	}

	@Test
	void shutDownWithDrainOfIdleQueueShouldReturnAtOnce() throws InterruptedException {
		this.queue.shutDownWithDrain();
		assertThat(this.queue.isShuttingDown()).isTrue();
	}

	@Test
	void nullItemsShouldBeRejected() {
		assertThatNullPointerException().isThrownBy(() -> this.queue.add(null)).withMessage("item");
		assertThatNullPointerException().isThrownBy(() -> this.queue.done(null)).withMessage("item");
	}

	private Optional<String> getUnchecked() {
		try {
			return this.queue.get();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void drainUnchecked() {
		try {
			this.queue.shutDownWithDrain();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void assertThatTimesOut(CompletableFuture<?> future) throws Exception {
		try {
			future.get(50, TimeUnit.MILLISECONDS);
			throw new AssertionError("expected the drain to still be waiting");
		}
		catch (TimeoutException expected) {
			// still waiting, as it should
		}
		catch (ExecutionException ex) {
			throw new AssertionError(ex);
		}
	}

}
