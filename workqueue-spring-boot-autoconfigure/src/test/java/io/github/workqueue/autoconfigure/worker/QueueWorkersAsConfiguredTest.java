package io.github.workqueue.autoconfigure.worker;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.internal.WorkQueueConfigurationFailureAnalyzer;
import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.GiveUpReason;
import io.github.workqueue.spring.ItemGivenUpEvent;
import io.github.workqueue.spring.ItemsUnfinishedAtShutdownEvent;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.spring.WorkContext;
import io.github.workqueue.spring.WorkResult;
import io.github.workqueue.spring.internal.DefaultQueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Worker methods as the starter wires them: queues made from {@code workqueue.*}
 * properties and the defaults, containers started and stopped with the application
 * context, the limiter's waits on the context's {@link Clock}, errors at startup that
 * name the property or method, and the logs and events an application sees. The
 * container's own behaviour without Spring, on both backends, is tested beside it in
 * {@code workqueue-spring} ({@code QueueWorkerContainerBehaviourTest},
 * {@code QueueWorkerOutcomeTest}, {@code ShutdownReportStressTest}).
 */
@ExtendWith(OutputCaptureExtension.class)
class QueueWorkersAsConfiguredTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(WorkQueueAutoConfiguration.class))
		.withBean(Clock.class, FakeClock::new)
		.withBean(GivenUpEvents.class)
		.withPropertyValues("workqueue.defaults.rate-limiter.type=exponential",
				"workqueue.defaults.rate-limiter.base-delay=1s", "workqueue.defaults.rate-limiter.max-delay=1m");

	@Test
	void itemsShouldBeDispatchedToTheWorkerMethod() {
		this.runner.withUserConfiguration(RecordingWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			queue.add("a");
			queue.add("b");
			RecordingWorker worker = context.getBean(RecordingWorker.class);
			await().untilAsserted(() -> assertThat(worker.items).containsExactly("a", "b"));
			assertThat(worker.threadNames).allMatch((name) -> name.startsWith("orders-worker-"));
			assertThat(container(context, "orders").outcomes().succeeded()).isEqualTo(2);
		});
	}

	@Test
	void workersShouldBePlatformThreadsByDefault() {
		this.runner.withUserConfiguration(RecordingWorker.class).run((context) -> {
			queue(context, "orders").add("a");
			RecordingWorker worker = context.getBean(RecordingWorker.class);
			await().until(() -> !worker.threads.isEmpty());
			assertThat(isVirtual(worker.threads.get(0))).isFalse();
		});
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void workersShouldBeVirtualThreadsWhenEnabledOnJdk21() {
		this.runner.withUserConfiguration(RecordingWorker.class)
			.withPropertyValues("spring.threads.virtual.enabled=true")
			.run((context) -> {
				queue(context, "orders").add("a");
				RecordingWorker worker = context.getBean(RecordingWorker.class);
				await().until(() -> !worker.threads.isEmpty());
				assertThat(isVirtual(worker.threads.get(0))).isTrue();
				assertThat(worker.threadNames.get(0)).isEqualTo("orders-worker-1");
			});
	}

	/** Thread.isVirtual() exists from JDK 21; the code is compiled for 17. */
	private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
		try {
			return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
		}
		catch (NoSuchMethodException ex) {
			return false;
		}
	}

	@Test
	void queueNotDeclaredShouldBeMadeFromTheDefaultsAndBeAnInjectableBean() {
		this.runner.withUserConfiguration(RecordingWorker.class, OrdersClient.class).run((context) -> {
			assertThat(context).hasBean("orders");
			assertThat(context.getBean(WorkQueueRegistry.class).getQueues()).containsKey("orders");
			assertThat(container(context, "orders").workers()).isEqualTo(1);
			OrdersClient client = context.getBean(OrdersClient.class);
			assertThat(client.orders).as("injected by its generic type").isSameAs(queue(context, "orders"));
			client.orders.add("from-a-client");
			await().untilAsserted(
					() -> assertThat(context.getBean(RecordingWorker.class).items).containsExactly("from-a-client"));
		});
	}

	@Test
	void aWorkerTakingAContextShouldGiveTheQueueItsItemType() {
		this.runner.withUserConfiguration(ContextWorker.class, WrongTypeClient.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("RateLimitingQueue<java.lang.Integer>"));
		this.runner.withUserConfiguration(ContextWorker.class, OrdersClient.class).run((context) -> {
			OrdersClient client = context.getBean(OrdersClient.class);
			assertThat(client.orders).as("injected by its generic type").isSameAs(queue(context, "orders"));
			client.orders.add("a", AddOptions.priority(3));
			await().untilAsserted(() -> assertThat(context.getBean(ContextWorker.class).contexts).hasSize(1));
			WorkContext work = context.getBean(ContextWorker.class).contexts.get(0);
			assertThat(work.queueName()).isEqualTo("orders");
			assertThat(work.priority()).isEqualTo(3);
			assertThat(work.attempt()).isEqualTo(1);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ContextWorker {

		final List<WorkContext> contexts = new CopyOnWriteArrayList<>();

		@QueueWorker("orders")
		void handle(String item, WorkContext context) {
			this.contexts.add(context);
		}

	}

	@Test
	void aQueueInjectedWithTheWrongItemTypeShouldFailAtStartup() {
		this.runner.withUserConfiguration(RecordingWorker.class, WrongTypeClient.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("RateLimitingQueue<java.lang.Integer>"));
	}

	@Test
	void aDeclaredQueueWithoutAWorkerShouldTakeItsItemTypeFromItsProperty() {
		this.runner.withUserConfiguration(WrongTypeClient.class)
			.withPropertyValues("workqueue.queues.orders.item-type=java.lang.Integer")
			.run((context) -> assertThat(context.getBean(WrongTypeClient.class).orders)
				.isSameAs(queue(context, "orders")));
	}

	@Test
	void theContainerShouldListTheItemsItProcessesWithTheirAgeOnItsClock() {
		this.runner.withUserConfiguration(BlockingWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			FakeClock clock = (FakeClock) context.getBean(Clock.class);
			BlockingWorker worker = context.getBean(BlockingWorker.class);
			QueueWorkerContainer container = container(context, "orders");
			assertThat(container.processing()).isEmpty();
			queue.add("key");
			assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
			clock.step(Duration.ofSeconds(7));
			assertThat(container.processing())
				.containsExactly(new QueueWorkerContainer.Processing("key", Duration.ofSeconds(7)));
			worker.release.countDown();
			await().until(() -> container.processing().isEmpty());
		});
	}

	@Test
	void failuresShouldBeRetriedAfterTheLimitersWait() {
		this.runner.withUserConfiguration(FailingWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			FakeClock clock = (FakeClock) context.getBean(Clock.class);
			FailingWorker worker = context.getBean(FailingWorker.class);
			queue.add("x");
			await().until(() -> queue.waitingLen() == 1);
			assertThat(worker.calls.get()).isEqualTo(1);
			clock.step(Duration.ofMillis(999));
			assertThat(queue.waitingLen()).isEqualTo(1);
			clock.step(Duration.ofMillis(1));
			await().until(() -> worker.calls.get() == 2 && queue.waitingLen() == 1);
			clock.step(Duration.ofMillis(1999));
			assertThat(queue.waitingLen()).as("second retry waits 2s").isEqualTo(1);
			clock.step(Duration.ofMillis(1));
			await().until(() -> worker.calls.get() == 3);
			assertThat(container(context, "orders").outcomes().retried()).isGreaterThanOrEqualTo(2);
		});
	}

	@Test
	void everyFailedAttemptShouldBeLoggedAtWarnWithAttemptNextDelayAndException(CapturedOutput output) {
		this.runner.withUserConfiguration(FailingWorker.class)
			.withPropertyValues("workqueue.queues.orders.max-retries=5")
			.run((context) -> {
				RateLimitingQueue<Object> queue = queue(context, "orders");
				queue.add("x");
				await().until(() -> output.getOut().contains("retrying in"));
				assertThat(output.getOut()).contains("WARN")
					.contains("Queue 'orders': item 'x' failed (attempt 1 of 6), retrying in PT1S")
					.contains("java.lang.IllegalStateException: boom x");
			});
	}

	@Test
	void requeuesShouldNotCountTowardsMaxRetries() {
		this.runner.withUserConfiguration(RequeueingWorker.class)
			.withPropertyValues("workqueue.queues.orders.max-retries=1")
			.run((context) -> {
				RateLimitingQueue<Object> queue = queue(context, "orders");
				FakeClock clock = (FakeClock) context.getBean(Clock.class);
				RequeueingWorker worker = context.getBean(RequeueingWorker.class);
				queue.add("x");
				await().until(() -> {
					clock.step(Duration.ofMinutes(1));
					return worker.calls.get() >= 6;
				});
				assertThat(context.getBean(GivenUpEvents.class).events)
					.as("four requeues and one failure stay within max-retries 1")
					.isEmpty();
				assertThat(worker.calls.get()).isEqualTo(6);
				assertThat(container(context, "orders").outcomes().retried()).isEqualTo(1);
			});
	}

	@Test
	void maxRetriesShouldGiveUpAndPublishAnEvent() {
		this.runner.withUserConfiguration(FailingWorker.class)
			.withPropertyValues("workqueue.queues.orders.max-retries=2")
			.run((context) -> {
				RateLimitingQueue<Object> queue = queue(context, "orders");
				FakeClock clock = (FakeClock) context.getBean(Clock.class);
				GivenUpEvents events = context.getBean(GivenUpEvents.class);
				queue.add("x");
				// Each step releases the retry that is waiting, if any; the count of
				// attempts does not depend on how steps and workers interleave.
				await().until(() -> {
					clock.step(Duration.ofMinutes(1));
					return events.events.size() == 1;
				});
				ItemGivenUpEvent event = events.events.get(0);
				assertThat(event.getQueueName()).isEqualTo("orders");
				assertThat(event.getItem()).isEqualTo("x");
				assertThat(event.getReason()).isEqualTo(GiveUpReason.MAX_RETRIES);
				assertThat(event.getAttempts()).isEqualTo(3);
				assertThat(event.getFailure()).hasMessage("boom x");
				assertThat(context.getBean(FailingWorker.class).calls.get()).isEqualTo(3);
				assertThat(queue.numRequeues("x")).as("forgotten").isZero();
				assertThat(queue.waitingLen()).isZero();
				assertThat(container(context, "orders").outcomes().givenUp()).isEqualTo(1);
			});
	}

	@Test
	void notRetryableExceptionFromTheAnnotationShouldGiveUpAtOnce() {
		this.runner.withUserConfiguration(NotRetryableWorker.class).run((context) -> {
			queue(context, "orders").add("bad");
			GivenUpEvents events = context.getBean(GivenUpEvents.class);
			await().until(() -> events.events.size() == 1);
			assertThat(events.events.get(0).getReason()).isEqualTo(GiveUpReason.NOT_RETRYABLE);
			assertThat(events.events.get(0).getAttempts()).isEqualTo(1);
		});
	}

	@Test
	void notRetryableExceptionFromThePropertiesShouldGiveUpAtOnce() {
		this.runner.withUserConfiguration(FailingWorker.class)
			.withPropertyValues("workqueue.queues.orders.not-retryable=java.lang.RuntimeException")
			.run((context) -> {
				queue(context, "orders").add("bad");
				GivenUpEvents events = context.getBean(GivenUpEvents.class);
				await().until(() -> events.events.size() == 1);
				assertThat(events.events.get(0).getReason()).isEqualTo(GiveUpReason.NOT_RETRYABLE);
			});
	}

	@Test
	void workerShouldSurviveExceptionsAndGoOn() {
		this.runner.withUserConfiguration(NotRetryableWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			queue.add("bad");
			queue.add("good");
			NotRetryableWorker worker = context.getBean(NotRetryableWorker.class);
			await().untilAsserted(() -> assertThat(worker.succeeded).containsExactly("good"));
			assertThat(container(context, "orders").liveWorkers()).isEqualTo(1);
		});
	}

	@Test
	void requeueAfterShouldRunTheItemAgainAfterTheDelay() {
		this.runner.withUserConfiguration(ResyncWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			FakeClock clock = (FakeClock) context.getBean(Clock.class);
			ResyncWorker worker = context.getBean(ResyncWorker.class);
			queue.add("x");
			await().until(() -> worker.calls.get() == 1 && queue.waitingLen() == 1);
			clock.step(Duration.ofSeconds(9));
			assertThat(worker.calls.get()).isEqualTo(1);
			clock.step(Duration.ofSeconds(1));
			await().until(() -> worker.calls.get() == 2);
			assertThat(queue.numRequeues("x")).isZero();
		});
	}

	@Test
	void workersOnTheAnnotationShouldOverrideTheProperties() {
		this.runner.withUserConfiguration(PlaceholderWorker.class)
			.withPropertyValues("workqueue.queues.orders.workers=1", "app.workers=4")
			.run((context) -> assertThat(container(context, "orders").workers()).isEqualTo(4));
	}

	@Test
	void itemOfTheWrongTypeShouldBeGivenUpNotRetried() {
		this.runner.withUserConfiguration(RecordingWorker.class).run((context) -> {
			queue(context, "orders").add(42);
			GivenUpEvents events = context.getBean(GivenUpEvents.class);
			await().until(() -> events.events.size() == 1);
			assertThat(events.events.get(0).getReason()).isEqualTo(GiveUpReason.ITEM_TYPE_MISMATCH);
			assertThat(events.events.get(0).getFailure()).hasMessageContaining("java.lang.Integer")
				.hasMessageContaining("java.lang.String");
		});
	}

	@Test
	void shutdownShouldDrainQueuedItemsAndNameWhatItCouldNotFinish(CapturedOutput output) {
		this.runner.withUserConfiguration(BlockingWorker.class, UnfinishedEvents.class)
			.withPropertyValues("workqueue.shutdown.timeout=200ms")
			.run((context) -> {
				UnfinishedEvents unfinished = context.getBean(UnfinishedEvents.class);
				RateLimitingQueue<Object> queue = queue(context, "orders");
				BlockingWorker worker = context.getBean(BlockingWorker.class);
				queue.add("stuck");
				assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
				queue.add("queued");
				queue.addAfter("waiting", Duration.ofHours(1));
				QueueWorkerContainer container = container(context, "orders");
				context.close();
				assertThat(container.outcomes().unfinishedAtShutdown()).as("1 in flight, 1 queued, 1 waiting")
					.isEqualTo(3);
				assertThat(container.isRunning()).isFalse();
				assertThat(unfinished.events).singleElement().satisfies((event) -> {
					assertThat(event.getQueueName()).isEqualTo("orders");
					assertThat(event.getInFlight()).containsExactly("stuck");
					assertThat(event.getQueued()).containsExactly("queued");
					assertThat(event.getWaiting()).containsExactly("waiting");
				});
				assertThat(output.getOut()).contains("WARN")
					.contains("Queue 'orders' shut down with 3 unfinished item(s): 1 in flight [stuck], 1 queued "
							+ "[queued], 1 waiting for a delay [waiting]; all are in the "
							+ "ItemsUnfinishedAtShutdownEvent published now");
				worker.release.countDown();
			});
	}

	@Test
	void theShutdownLogShouldStayBoundedAndSayHowManyItLeftOut(CapturedOutput output) {
		this.runner.withUserConfiguration(BlockingWorker.class, UnfinishedEvents.class)
			.withPropertyValues("workqueue.shutdown.timeout=100ms")
			.run((context) -> {
				UnfinishedEvents unfinished = context.getBean(UnfinishedEvents.class);
				RateLimitingQueue<Object> queue = queue(context, "orders");
				BlockingWorker worker = context.getBean(BlockingWorker.class);
				queue.add("stuck");
				assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
				for (int i = 0; i < 25; i++) {
					queue.add("queued-" + i);
				}
				context.close();
				assertThat(unfinished.events).singleElement()
					.satisfies((event) -> assertThat(event.getQueued()).hasSize(25));
				assertThat(output.getOut())
					.contains("queued-19, ... 5 more], 0 waiting for a delay []; "
							+ "5 not named here; all are in the ItemsUnfinishedAtShutdownEvent published now")
					.doesNotContain("queued-20");
				worker.release.countDown();
			});
	}

	@Test
	void shutdownShouldFinishItemsInFlightWithinTheTimeout() {
		this.runner.withUserConfiguration(BlockingWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			BlockingWorker worker = context.getBean(BlockingWorker.class);
			queue.add("a");
			assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
			queue.add("b");
			QueueWorkerContainer container = container(context, "orders");
			new Thread(() -> {
				await().until(queue::isShuttingDown);
				worker.release.countDown();
			}).start();
			context.close();
			assertThat(worker.calls.get()).as("in flight and queued both processed").isEqualTo(2);
			assertThat(container.outcomes().unfinishedAtShutdown()).isZero();
		});
	}

	@Test
	void aMethodInterruptedAfterTheShutdownTimeoutShouldNotBeRetriedNorCalledAgain() {
		this.runner.withUserConfiguration(BlockingWorker.class)
			.withPropertyValues("workqueue.shutdown.timeout=100ms")
			.run((context) -> {
				RateLimitingQueue<Object> queue = queue(context, "orders");
				BlockingWorker worker = context.getBean(BlockingWorker.class);
				queue.add("a");
				assertThat(worker.started.await(10, TimeUnit.SECONDS)).isTrue();
				queue.add("b");
				QueueWorkerContainer container = container(context, "orders");
				context.close();
				await().until(() -> container.liveWorkers() == 0);
				assertThat(worker.calls.get()).as("no call after the container gave up").isEqualTo(1);
				assertThat(container.outcomes().retried()).as("an interrupt is not a failure").isZero();
			});
	}

	@Test
	void runningWorkersShouldKeepTheJvmAliveUntilTheContextIsClosed() {
		this.runner.withUserConfiguration(RecordingWorker.class).run((context) -> {
			assertThat(keepAliveThread()).as("a non-daemon thread while workers run")
				.hasValueSatisfying((thread) -> assertThat(thread.isDaemon()).isFalse());
			context.close();
			await().until(() -> keepAliveThread().isEmpty());
		});
	}

	@Test
	void keepAliveFalseShouldLeaveOnlyDaemonWorkerThreads() {
		this.runner.withUserConfiguration(RecordingWorker.class)
			.withPropertyValues("workqueue.keep-alive=false")
			.run((context) -> {
				queue(context, "orders").add("a");
				RecordingWorker worker = context.getBean(RecordingWorker.class);
				await().until(() -> !worker.threads.isEmpty());
				assertThat(keepAliveThread()).isEmpty();
				assertThat(worker.threads.get(0).isDaemon()).isTrue();
			});
	}

	private static java.util.Optional<Thread> keepAliveThread() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals("workqueue-keep-alive") && thread.isAlive())
			.findFirst();
	}

	@Test
	void theRegistryShouldRefuseToStartAgainAfterStop() {
		this.runner.withUserConfiguration(RecordingWorker.class).run((context) -> {
			DefaultQueueWorkerRegistry registry = context.getBean(DefaultQueueWorkerRegistry.class);
			registry.stop();
			assertThatIllegalStateException().isThrownBy(registry::start).withMessageContaining("cannot be restarted");
		});
	}

	@Test
	void aWorkerOfAnUndeclaredQueueShouldWarnWithTheNearestDeclaredName(CapturedOutput output) {
		this.runner.withUserConfiguration(TypoWorker.class)
			.withPropertyValues("workqueue.queues.orders.workers=2", "workqueue.queues.payments.workers=1")
			.run((context) -> assertThat(output.getOut()).contains("WARN")
				.contains("A @QueueWorker names queue 'order', which is not declared under workqueue.queues "
						+ "(declared: [orders, payments])")
				.contains("Did you mean 'orders'?"));
	}

	@Test
	void anUnknownPropertyShouldFailStartupNamingIt() {
		this.runner.withPropertyValues("workqueue.queues.orders.wrokers=3").run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).contains("property 'workqueue.queues.orders.wrokers'")
				.contains("is not a workqueue property");
			assertThat(analysis.getAction()).contains("A queue takes adaptive-prefetch, backend, default-priority, "
					+ "fairness, item-type, key-prefix, lease-duration, max-async-adds, max-redeliveries, max-retries, "
					+ "not-retryable, prefetch, rate-limiter.*, replicas-ack, replicas-ack-timeout, shards, workers.");
		});
	}

	@Test
	void anUnknownRateLimiterPropertyShouldListTheRateLimitersProperties() {
		this.runner.withPropertyValues("workqueue.queues.orders.rate-limiter.max-dealy=1s").run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).contains("property 'workqueue.queues.orders.rate-limiter.max-dealy'");
			assertThat(analysis.getAction()).contains("A rate limiter takes base-delay, bean, burst, fast-delay, "
					+ "limiters, max-delay, max-fast-attempts, max-wait, qps, slow-delay, type.");
		});
	}

	@Test
	void anUnknownShutdownPropertyShouldListTheShutdownsProperties() {
		this.runner.withPropertyValues("workqueue.shutdown.timout=5s").run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).contains("property 'workqueue.shutdown.timout'");
			assertThat(analysis.getAction()).contains("workqueue.shutdown takes timeout.");
		});
	}

	@Test
	void aNotRetryableTypeThatIsNotAnExceptionShouldFailStartup() {
		this.runner.withPropertyValues("workqueue.queues.orders.not-retryable=java.lang.String").run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription())
				.contains("property 'workqueue.queues.orders.not-retryable[0]' (value: java.lang.String)")
				.contains("is not an exception type");
		});
	}

	@Test
	void anItemTypeAmongTheDefaultsShouldFailStartup() {
		this.runner.withPropertyValues("workqueue.defaults.item-type=java.lang.String")
			.run((context) -> assertThat(analyze(context).getDescription())
				.contains("property 'workqueue.defaults.item-type'")
				.contains("is a property of one queue, not a default"));
	}

	@Test
	void aNegativeShutdownTimeoutShouldFailStartup() {
		this.runner.withPropertyValues("workqueue.shutdown.timeout=-1s")
			.run((context) -> assertThat(analyze(context).getDescription())
				.contains("property 'workqueue.shutdown.timeout'")
				.contains("must not be negative"));
	}

	@Test
	void anUnresolvableWorkersPlaceholderShouldFailStartupNamingTheMethod() {
		this.runner.withUserConfiguration(PlaceholderWorker.class).run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).contains(PlaceholderWorker.class.getName() + ".handle(String)")
				.contains("@QueueWorker(workers = \"${app.workers}\") cannot be resolved");
		});
	}

	@Test
	void pausedWorkersShouldTakeNoItemsUntilResumed() {
		this.runner.withUserConfiguration(RecordingWorker.class).run((context) -> {
			RateLimitingQueue<Object> queue = queue(context, "orders");
			RecordingWorker worker = context.getBean(RecordingWorker.class);
			QueueWorkerContainer container = container(context, "orders");
			await().until(() -> container.liveWorkers() == 1);
			container.pause();
			queue.add("a");
			queue.add("b");
			queue.addAfter("c", Duration.ofHours(1));
			// A worker blocked in get when the pause came must not take an item and hand
			// it back: the queue keeps both, in order, and the waiting one keeps waiting.
			await().during(Duration.ofMillis(300))
				.atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(new int[] { queue.len(), queue.waitingLen() }).containsExactly(2, 1));
			assertThat(worker.items).isEmpty();
			assertThat(container.isPaused()).isTrue();
			assertThat(container.liveWorkers()).as("the pause did not kill the worker").isEqualTo(1);
			container.resume();
			await().untilAsserted(() -> assertThat(worker.items).containsExactly("a", "b"));
			assertThat(queue.waitingLen()).isEqualTo(1);
		});
	}

	@Test
	void methodWithASecondParameterThatIsNoContextShouldFailStartupNamingIt() {
		this.runner.withUserConfiguration(TwoParameterWorker.class).run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).isEqualTo("Invalid @QueueWorker method "
					+ TwoParameterWorker.class.getName()
					+ ".handle(String, int): its second parameter is a int, not a io.github.workqueue.spring.WorkContext.");
			assertThat(analysis.getAction()).isEqualTo("Change it so that a @QueueWorker method takes the item, and "
					+ "optionally a WorkContext second, and returns void or WorkResult, for example "
					+ "'void handle(String key, WorkContext context)'.");
		});
	}

	@Test
	void methodReturningSomethingElseShouldFailStartup() {
		this.runner.withUserConfiguration(WrongReturnWorker.class)
			.run((context) -> assertThat(analyze(context).getDescription()).isEqualTo("Invalid @QueueWorker method "
					+ WrongReturnWorker.class.getName() + ".handle(String): it returns java.lang.String."));
	}

	@Test
	void twoWorkersForOneQueueShouldFailStartup() {
		this.runner.withUserConfiguration(RecordingWorker.class, SecondOrdersWorker.class)
			.run((context) -> assertThat(analyze(context).getDescription())
				.contains("queue 'orders' already has a worker"));
	}

	private static FailureAnalysis analyze(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new WorkQueueConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
		return analysis;
	}

	@SuppressWarnings("unchecked")
	private static RateLimitingQueue<Object> queue(AssertableApplicationContext context, String name) {
		return (RateLimitingQueue<Object>) context.getBean(WorkQueueRegistry.class).getQueue(name);
	}

	private static QueueWorkerContainer container(AssertableApplicationContext context, String name) {
		return context.getBean(QueueWorkerRegistry.class).getContainer(name);
	}

	static class UnfinishedEvents implements ApplicationListener<ItemsUnfinishedAtShutdownEvent> {

		final List<ItemsUnfinishedAtShutdownEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ItemsUnfinishedAtShutdownEvent event) {
			this.events.add(event);
		}

	}

	static class GivenUpEvents implements ApplicationListener<ItemGivenUpEvent> {

		final List<ItemGivenUpEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ItemGivenUpEvent event) {
			this.events.add(event);
		}

	}

	static class OrdersClient {

		final RateLimitingQueue<String> orders;

		OrdersClient(RateLimitingQueue<String> orders) {
			this.orders = orders;
		}

	}

	static class WrongTypeClient {

		final RateLimitingQueue<Integer> orders;

		WrongTypeClient(@Qualifier("orders") RateLimitingQueue<Integer> orders) {
			this.orders = orders;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingWorker {

		final List<String> items = new CopyOnWriteArrayList<>();

		final List<String> threadNames = new CopyOnWriteArrayList<>();

		final List<Thread> threads = new CopyOnWriteArrayList<>();

		@QueueWorker("orders")
		void handle(String item) {
			this.items.add(item);
			this.threadNames.add(Thread.currentThread().getName());
			this.threads.add(Thread.currentThread());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SecondOrdersWorker {

		@QueueWorker("orders")
		void handle(String item) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BlockingWorker {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final AtomicInteger calls = new AtomicInteger();

		@QueueWorker("orders")
		void handle(String item) throws InterruptedException {
			this.calls.incrementAndGet();
			this.started.countDown();
			this.release.await();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingWorker {

		final AtomicInteger calls = new AtomicInteger();

		@QueueWorker("orders")
		void handle(String item) {
			this.calls.incrementAndGet();
			throw new IllegalStateException("boom " + item);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NotRetryableWorker {

		final List<String> succeeded = new CopyOnWriteArrayList<>();

		@QueueWorker(value = "orders", notRetryable = IllegalArgumentException.class)
		void handle(String item) {
			if (item.equals("bad")) {
				throw new IllegalArgumentException("bad item");
			}
			this.succeeded.add(item);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ResyncWorker {

		final AtomicInteger calls = new AtomicInteger();

		@QueueWorker("orders")
		WorkResult handle(String item) {
			this.calls.incrementAndGet();
			return WorkResult.requeueAfter(Duration.ofSeconds(10));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RequeueingWorker {

		final AtomicInteger calls = new AtomicInteger();

		@QueueWorker("orders")
		WorkResult handle(String item) {
			int call = this.calls.incrementAndGet();
			if (call <= 4) {
				return WorkResult.requeue();
			}
			if (call == 5) {
				throw new IllegalStateException("transient");
			}
			return WorkResult.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TypoWorker {

		@QueueWorker("order")
		void handle(String item) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlaceholderWorker {

		@QueueWorker(value = "orders", workers = "${app.workers}")
		void handle(String item) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoParameterWorker {

		@QueueWorker("orders")
		void handle(String item, int attempt) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WrongReturnWorker {

		@QueueWorker("orders")
		String handle(String item) {
			return item;
		}

	}

}
