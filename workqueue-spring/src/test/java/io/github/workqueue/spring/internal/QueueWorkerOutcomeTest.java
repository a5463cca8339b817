package io.github.workqueue.spring.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.GiveUpReason;
import io.github.workqueue.spring.ItemGivenUpEvent;
import io.github.workqueue.spring.ItemProcessingListener;
import io.github.workqueue.spring.WorkResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What becomes of an item after its worker method ({@link OutcomeHandler}), and the
 * queue's rules seen through the container, the same on both backends: failures retried
 * until max-retries, then given up as a dead letter with an event; requeues that do not
 * count as failures; adds while processing that collapse into one more run; workers in
 * parallel but never two on one item.
 */
class QueueWorkerOutcomeTest extends OnBothBackends {

	@Test
	void aFailingItemShouldBeRetriedUntilMaxRetriesThenKeptAsADeadLetter() {
		RateLimitingQueue<Object> queue = kit().queue("max-retries");
		AtomicInteger calls = new AtomicInteger();
		DefaultQueueWorkerContainer container = kit().start(queue, new Object() {
			@SuppressWarnings("unused")
			void handle(String item) {
				calls.incrementAndGet();
				throw new IllegalStateException("boom " + item);
			}
		}, 1, 2);
		queue.add("x");
		await().until(() -> kit().events.stream().anyMatch(ItemGivenUpEvent.class::isInstance));
		ItemGivenUpEvent event = (ItemGivenUpEvent) kit().events.stream()
			.filter(ItemGivenUpEvent.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(event.getReason()).isEqualTo(GiveUpReason.MAX_RETRIES);
		assertThat(event.getAttempts()).isEqualTo(3);
		assertThat(calls.get()).isEqualTo(3);
		assertThat(container.outcomes().retried()).isEqualTo(2);
		assertThat(container.outcomes().givenUp()).isEqualTo(1);
		assertThat(container.deadLetters().deadLetters()).extracting(DeadLetter::item, DeadLetter::attempts)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("x", 3));
		assertThat(container.deadLetters().deadLetters().get(0).lastError()).contains("boom x");
		assertThat(queue.numRequeues("x")).as("the limiter forgot it").isZero();
	}

	@Test
	void listenersShouldHearEachProcessingAndWhetherTheContainerAddedTheItemAgain() {
		List<String> heard = new CopyOnWriteArrayList<>();
		kit().listeners = new ItemListeners(List.of(new ItemProcessingListener() {
			@Override
			public void started(String queueName, Object item) {
				heard.add("started " + item);
			}

			@Override
			public void ended(String queueName, Object item, boolean requeued) {
				heard.add("ended " + item + (requeued ? " requeued" : ""));
			}
		}, new ItemProcessingListener() {
			@Override
			public void started(String queueName, Object item) {
				throw new IllegalStateException("a listener that fails must not fail the worker");
			}
		}));
		RateLimitingQueue<Object> queue = kit().queue("listeners");
		AtomicInteger calls = new AtomicInteger();
		kit().start(queue, new Object() {
			@SuppressWarnings("unused")
			void handle(String item) {
				if (item.equals("fails-once") && calls.incrementAndGet() == 1) {
					throw new IllegalStateException("once");
				}
			}
		}, 1, null);
		queue.add("plain");
		await().until(() -> heard.contains("ended plain"));
		queue.add("fails-once");
		await().until(() -> heard.contains("ended fails-once"));
		assertThat(heard).containsSubsequence("started fails-once", "ended fails-once requeued", "started fails-once",
				"ended fails-once");
		assertThat(heard).containsSubsequence("started plain", "ended plain");
	}

	@Test
	void requeuesShouldNotCountAsFailedAttempts() {
		RateLimitingQueue<Object> queue = kit().queue("requeues");
		AtomicInteger calls = new AtomicInteger();
		DefaultQueueWorkerContainer container = kit().start(queue, new Object() {
			@SuppressWarnings("unused")
			WorkResult handle(String item) {
				int call = calls.incrementAndGet();
				if (call <= 4) {
					return WorkResult.requeue();
				}
				if (call == 5) {
					throw new IllegalStateException("one failure");
				}
				return WorkResult.done();
			}
		}, 1, 1);
		queue.add("x");
		await().until(() -> calls.get() == 6);
		await().until(() -> container.inFlight() == 0);
		assertThat(kit().events).as("four requeues and one failure stay within max-retries 1")
			.noneMatch(ItemGivenUpEvent.class::isInstance);
		assertThat(container.outcomes().retried()).isEqualTo(1);
		assertThat(container.outcomes().givenUp()).isZero();
	}

	@Test
	void addsWhileAnItemIsProcessedShouldCollapseIntoOneMoreRun() throws InterruptedException {
		RateLimitingQueue<Object> queue = kit().queue("collapse");
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		DefaultQueueWorkerContainer container = kit().start(queue, new Object() {
			@SuppressWarnings("unused")
			void handle(String item) throws InterruptedException {
				if (calls.incrementAndGet() == 1) {
					started.countDown();
					release.await(10, TimeUnit.SECONDS);
				}
			}
		}, 2, null);
		queue.add("key");
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		for (int i = 0; i < 100; i++) {
			queue.add("key");
		}
		release.countDown();
		await().until(() -> calls.get() == 2 && container.inFlight() == 0 && queue.len() == 0);
		assertThat(calls.get()).isEqualTo(2);
	}

	@Test
	void workersShouldRunInParallelButNeverTwoOnOneItem() {
		RateLimitingQueue<Object> queue = kit().queue("parallel");
		Set<String> inProgress = ConcurrentHashMap.newKeySet();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger calls = new AtomicInteger();
		DefaultQueueWorkerContainer container = kit().start(queue, new Object() {
			@SuppressWarnings("unused")
			void handle(String item) throws InterruptedException {
				if (!inProgress.add(item)) {
					overlaps.incrementAndGet();
				}
				Thread.sleep(1);
				inProgress.remove(item);
				calls.incrementAndGet();
			}
		}, 3, null);
		for (int round = 0; round < 200; round++) {
			queue.add("item-" + (round % 5));
		}
		await().until(() -> calls.get() >= 5 && container.inFlight() == 0 && queue.len() == 0);
		assertThat(overlaps.get()).isZero();
		assertThat(container.workers()).isEqualTo(3);
	}

}
