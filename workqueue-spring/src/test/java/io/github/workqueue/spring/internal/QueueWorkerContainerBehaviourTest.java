package io.github.workqueue.spring.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.FailedAttempts;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.redis.QueueInstance;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.ItemGivenUpEvent;
import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

/**
 * The worker container's behaviour, the same on both backends: pause and resume,
 * interrupts, worker replacement and the shutdown report. The Redis runs use the test
 * Redis (the embedded server unless {@code WORKQUEUE_TEST_REDIS_URL} is set).
 */
class QueueWorkerContainerBehaviourTest extends OnBothBackends {

	@Test
	void pauseShouldReleaseBlockedWorkersWhichTakeNothingUntilResumed() {
		RateLimitingQueue<Object> queue = kit().queue("pause");
		Recorder worker = new Recorder();
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 2, null);
		queue.add("before");
		await().until(() -> worker.done.contains("before"));
		container.pause();
		queue.add("while-paused");
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !worker.started.contains("while-paused") && container.liveWorkers() == 2);
		container.resume();
		await().until(() -> worker.done.contains("while-paused"));
		assertThat(container.liveWorkers()).isEqualTo(2);
		assertThat(container.replacedWorkers()).isZero();
	}

	@Test
	void pauseAndResumeManyTimesShouldKeepEveryWorkerAndLoseNoItem() {
		RateLimitingQueue<Object> queue = kit().queue("pause-cycles");
		Recorder worker = new Recorder();
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 3, null);
		for (int i = 0; i < 50; i++) {
			queue.add("item-" + i);
			container.pause();
			container.resume();
		}
		await().until(() -> worker.done.size() == 50);
		assertThat(container.liveWorkers()).isEqualTo(3);
	}

	@Test
	void aPausedOrHeldContainerShouldSaySoToTheOtherInstancesOfARedisQueue() {
		assumeTrue(this.backend.equals("redis"), "only a Redis queue has other instances");
		RateLimitingQueue<Object> queue = kit().queue("pause-seen");
		RedisQueue<?> redis = (RedisQueue<?>) queue;
		DefaultQueueWorkerContainer container = kit().start(queue, new Recorder(), 1, null);
		container.pause();
		await().until(() -> redis.instances().stream().allMatch(QueueInstance::paused));
		container.hold("leader election");
		container.resume();
		await().during(Duration.ofMillis(1500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> redis.instances().stream().allMatch(QueueInstance::paused));
		container.release("leader election");
		await().until(() -> redis.instances().stream().noneMatch(QueueInstance::paused));
	}

	@Test
	void aHoldShouldOutlastAResumeAndEndOnlyWithItsRelease() {
		RateLimitingQueue<Object> queue = kit().queue("hold");
		Recorder worker = new Recorder();
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 2, null);
		container.hold("leader election");
		container.hold("cache sync");
		queue.add("held");
		container.resume();
		container.release("cache sync");
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !worker.started.contains("held"));
		assertThat(container.isHeld()).isTrue();
		assertThat(container.isPaused()).as("held is paused to whoever looks").isTrue();
		container.release("leader election");
		await().until(() -> worker.done.contains("held"));
		assertThat(container.isPaused()).isFalse();
		assertThat(container.liveWorkers()).isEqualTo(2);
	}

	@Test
	void afterPauseReturnsNoMethodCallShouldStartUntilResumed() throws InterruptedException {
		RateLimitingQueue<Object> queue = kit().queue("pause-exact");
		AtomicInteger calls = new AtomicInteger();
		Recorder worker = new Recorder() {
			@Override
			void work(String item) {
				calls.incrementAndGet();
			}
		};
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 4, null);
		// Items keep coming while the pause races the workers' takes, 200 times.
		int startedWhilePaused = 0;
		for (int cycle = 0; cycle < 200; cycle++) {
			for (int i = 0; i < 5; i++) {
				queue.add("item-" + cycle + "-" + i);
			}
			container.pause();
			assertThat(container.awaitIdle(Duration.ofSeconds(10))).as("the calls in flight end").isTrue();
			int before = calls.get();
			// Room for a worker that took an item as the pause came to start it.
			Thread.sleep(1);
			startedWhilePaused += calls.get() - before;
			container.resume();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> worker.done.size() == 1000);
		assertThat(startedWhilePaused).as("method calls started while paused and idle").isZero();
		assertThat(container.liveWorkers()).isEqualTo(4);
	}

	@Test
	void awaitIdleShouldWaitForTheCallsInFlightAndInterruptProcessingShouldEndThem() throws InterruptedException {
		RateLimitingQueue<Object> queue = kit().queue("await-idle");
		CountDownLatch release = new CountDownLatch(1);
		Recorder worker = new Recorder() {
			@Override
			void work(String item) throws InterruptedException {
				if (item.startsWith("blocked")) {
					release.await();
				}
				else if (item.startsWith("endless") && this.attempts.merge(item, 1, Integer::sum) == 1) {
					Thread.sleep(Long.MAX_VALUE);
				}
			}
		};
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 2, null);
		queue.add("blocked");
		await().until(() -> worker.started.contains("blocked"));
		container.pause();
		assertThat(container.awaitIdle(Duration.ofMillis(200))).as("a call still runs").isFalse();
		release.countDown();
		assertThat(container.awaitIdle(Duration.ofSeconds(10))).isTrue();
		assertThat(worker.done).contains("blocked");

		container.resume();
		queue.add("endless");
		await().until(() -> worker.started.contains("endless"));
		container.pause();
		container.interruptProcessing();
		assertThat(container.awaitIdle(Duration.ofSeconds(10))).as("the interrupted call ended").isTrue();
		assertThat(container.outcomes().retried()).as("an interrupted call is a failed attempt").isEqualTo(1);
		container.resume();
		await().until(() -> worker.done.contains("endless"));
		assertThat(container.liveWorkers()).isEqualTo(2);
	}

	@Test
	void aMethodThatThrowsInterruptedExceptionShouldBeAFailedAttemptAndTheWorkerGoesOn() {
		RateLimitingQueue<Object> queue = kit().queue("interrupted-method");
		Recorder worker = new Recorder() {
			@Override
			void work(String item) throws InterruptedException {
				if (item.equals("interrupted") && this.attempts.merge(item, 1, Integer::sum) == 1) {
					throw new InterruptedException("from the method");
				}
			}
		};
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 2, 3);
		queue.add("interrupted");
		await().until(() -> worker.done.contains("interrupted"));
		queue.add("after");
		await().until(() -> worker.done.contains("after"));
		assertThat(container.outcomes().retried()).as("the interrupt was a failed attempt, retried").isEqualTo(1);
		assertThat(container.liveWorkers()).isEqualTo(2);
		assertThat(container.replacedWorkers()).isZero();
	}

	@Test
	void aMethodThatLeavesItsInterruptBehindShouldBeAFailedAttempt() {
		RateLimitingQueue<Object> queue = kit().queue("interrupt-left");
		Recorder worker = new Recorder() {
			@Override
			void work(String item) {
				if (this.attempts.merge(item, 1, Integer::sum) == 1) {
					// The common mistake: catch InterruptedException, restore the status,
					// return as if the work were done.
					Thread.currentThread().interrupt();
				}
			}
		};
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 1, 3);
		queue.add("a");
		await().until(() -> worker.attempts.getOrDefault("a", 0) == 2);
		queue.add("b");
		await().until(() -> worker.attempts.getOrDefault("b", 0) == 2);
		assertThat(container.outcomes().retried()).isEqualTo(2);
		assertThat(container.liveWorkers()).isEqualTo(1);
	}

	@Test
	void anInterruptFromElsewhereWhileWaitingShouldNotEndTheWorker() throws InterruptedException {
		RateLimitingQueue<Object> queue = kit().queue("stray-interrupt");
		Recorder worker = new Recorder();
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 1, null);
		await().until(() -> !kit().threads.isEmpty());
		Thread thread = kit().threads.get(0);
		await()
			.until(() -> thread.getState() == Thread.State.WAITING || thread.getState() == Thread.State.TIMED_WAITING);
		thread.interrupt();
		queue.add("after-interrupt");
		await().until(() -> worker.done.contains("after-interrupt"));
		assertThat(container.liveWorkers()).isEqualTo(1);
		assertThat(kit().threads).hasSize(1);
	}

	@Test
	void aWorkerThreadThatDiesShouldBeReplacedAndCounted() {
		RateLimitingQueue<Object> queue = ContainerTestKit.failingDone(kit().queue("dying-worker"),
				(item) -> item.equals("fatal"), new LinkageError("thrown by done"));
		Recorder worker = new Recorder();
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 2, null);
		queue.add("fatal");
		await().until(() -> container.replacedWorkers() == 1);
		for (int i = 0; i < 10; i++) {
			queue.add("after-" + i);
		}
		await().until(() -> worker.done.containsAll(List.of("after-0", "after-5", "after-9")));
		assertThat(container.liveWorkers()).isEqualTo(2);
		assertThat(kit().threads).hasSize(3);
		assertThat(kit().threads.get(2).getName()).as("the replacement keeps the name of the thread it replaces")
			.isIn(kit().threads.get(0).getName(), kit().threads.get(1).getName());
	}

	@Test
	void maxRetriesShouldCountFailedAttemptsQueueWideAcrossInstances() {
		assumeTrue(kit().isRedis(), "two instances share a queue only on Redis");
		String name = TestRedis.uniqueName("shared-retries");
		Recorder failing = new Recorder() {
			@Override
			void work(String item) {
				throw new IllegalStateException("always fails");
			}
		};
		Recorder failingToo = new Recorder() {
			@Override
			void work(String item) {
				throw new IllegalStateException("always fails");
			}
		};
		RateLimitingQueue<Object> first = kit().queue(name, Duration.ofSeconds(30));
		kit().start(first, failing, 1, 2);
		kit().start(kit().queue(name, Duration.ofSeconds(30)), failingToo, 1, 2);
		first.add("poison");
		await().until(() -> kit().events.stream().anyMatch(ItemGivenUpEvent.class::isInstance));
		await().during(Duration.ofMillis(300)).until(() -> kit().events.size() == 1);
		ItemGivenUpEvent givenUp = (ItemGivenUpEvent) kit().events.get(0);
		assertThat(givenUp.getAttempts()).isEqualTo(3);
		assertThat(failing.started.size() + failingToo.started.size())
			.as("max-retries 2 allows 3 attempts in all, whichever instance makes them")
			.isEqualTo(3);
		assertThat(first.numRequeues("poison")).as("the limiter's memory forgotten at give-up").isZero();
		assertThat(recordFailedAttempt(first, "poison")).as("failed attempts cleared at give-up").isEqualTo(1);
	}

	@SuppressWarnings("unchecked")
	private static int recordFailedAttempt(RateLimitingQueue<Object> queue, Object item) {
		return ((FailedAttempts<Object>) queue).recordFailedAttempt(item);
	}

	@Test
	void shutdownShouldNameTheItemInFlightAndNoMethodShouldStartAfterItGaveUp() throws InterruptedException {
		RateLimitingQueue<Object> queue = kit().queue("give-up");
		CountDownLatch slowStarted = new CountDownLatch(1);
		Recorder worker = new Recorder() {
			@Override
			void work(String item) throws InterruptedException {
				slowStarted.countDown();
				TimeUnit.MINUTES.sleep(1);
			}
		};
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 1, null);
		queue.add("slow");
		assertThat(slowStarted.await(10, TimeUnit.SECONDS)).isTrue();
		queue.add("next");
		ContainerTestKit.stop(container, Duration.ofMillis(200));
		ItemsUnfinishedAtShutdownEvent report = (ItemsUnfinishedAtShutdownEvent) kit().events.get(0);
		assertThat(report.getInFlight()).containsExactly("slow");
		if (kit().isRedis()) {
			// The next item stays in Redis for the other instances.
			assertThat(report.getQueued()).isEmpty();
		}
		else {
			assertThat(report.getQueued()).containsExactly("next");
		}
		await().until(() -> kit().threads.stream().noneMatch(Thread::isAlive));
		assertThat(worker.started).containsExactly("slow");
		assertThat(container.outcomes().retried()).as("the shutdown's interrupt is no failure").isZero();
	}

	/** Records what its worker method was called with. */
	@Test
	void anItemGivenUpShouldBeKeptAsADeadLetterThatCanBeRequeued() {
		RateLimitingQueue<Object> queue = kit().queue("dead-letters");
		AtomicBoolean failing = new AtomicBoolean(true);
		Recorder worker = new Recorder() {
			@Override
			void work(String item) {
				this.attempts.merge(item, 1, Integer::sum);
				if (failing.get()) {
					throw new IllegalStateException("downstream refused " + item);
				}
			}
		};
		DefaultQueueWorkerContainer container = kit().start(queue, worker, 1, 1);
		queue.add("doomed");
		await().until(() -> !container.deadLetters().deadLetters().isEmpty());
		assertThat(container.deadLetters().deadLetters()).singleElement().satisfies((letter) -> {
			assertThat(letter.item()).isEqualTo("doomed");
			assertThat(letter.reason()).isEqualTo("gave up after max-retries");
			assertThat(letter.attempts()).isEqualTo(2);
			assertThat(letter.lastError()).isEqualTo("java.lang.IllegalStateException: downstream refused doomed");
			assertThat(letter.at()).isNotNull();
		});
		assertThat(worker.attempts.get("doomed")).isEqualTo(2);

		failing.set(false);
		assertThat(container.deadLetters().requeueDeadLetter("doomed")).isTrue();
		await().until(() -> worker.done.contains("doomed"));
		assertThat(container.deadLetters().deadLetters()).isEmpty();
		assertThat(container.deadLetters().requeueDeadLetter("doomed")).isFalse();
		assertThat(container.deadLetters().dropDeadLetter("doomed")).isFalse();
	}

	static class Recorder {

		final List<String> started = new CopyOnWriteArrayList<>();

		final Set<String> done = ConcurrentHashMap.newKeySet();

		final ConcurrentHashMap<String, Integer> attempts = new ConcurrentHashMap<>();

		void handle(String item) throws Exception {
			this.started.add(item);
			work(item);
			this.done.add(item);
		}

		void work(String item) throws Exception {
		}

	}

}
