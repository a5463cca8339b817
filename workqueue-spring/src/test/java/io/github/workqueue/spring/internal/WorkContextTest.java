package io.github.workqueue.spring.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.ItemLease;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.WorkContext;
import io.github.workqueue.spring.WorkResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A worker method's second parameter, its {@link WorkContext}, and requeues with a
 * priority, on both backends.
 */
class WorkContextTest extends OnBothBackends {

	@Test
	void theContextShouldCarryTheQueueTheAttemptThePriorityAndOnRedisTheLease() {
		RateLimitingQueue<Object> queue = kit().queue("context");
		ContextRecorder worker = new ContextRecorder() {
			@Override
			WorkResult work(String item, WorkContext context) {
				if (context.attempt() == 1) {
					throw new IllegalStateException("first attempt fails");
				}
				return WorkResult.done();
			}
		};
		kit().start(queue, worker, 1, null);
		queue.add("a", AddOptions.priority(5));
		await().until(() -> worker.contexts.size() == 2);
		WorkContext first = worker.contexts.get(0);
		WorkContext second = worker.contexts.get(1);
		assertThat(first.queueName()).isEqualTo(queue.name());
		assertThat(List.of(first.attempt(), second.attempt())).containsExactly(1, 2);
		assertThat(List.of(first.priority(), second.priority())).as("a failed attempt's retry keeps the priority")
			.containsExactly(5, 5);
		assertThat(first.fairnessKeys()).isEmpty();
		if (kit().isRedis()) {
			ItemLease lease = second.lease().orElseThrow();
			assertThat(lease.token()).isGreaterThan(first.lease().orElseThrow().token());
			assertThat(worker.liveDuringCall).containsExactly(true, true);
		}
		else {
			assertThat(first.lease()).isEmpty();
		}
	}

	@Test
	void aRequeueWithAPriorityShouldRaiseTheItem() {
		RateLimitingQueue<Object> queue = kit().queue("requeue-priority");
		ContextRecorder worker = new ContextRecorder() {
			@Override
			WorkResult work(String item, WorkContext context) {
				return (this.contexts.size() == 1) ? WorkResult.requeue().withPriority(9) : WorkResult.done();
			}
		};
		kit().start(queue, worker, 1, null);
		queue.add("a");
		await().until(() -> worker.contexts.size() == 2);
		assertThat(worker.contexts.get(0).priority()).isZero();
		assertThat(worker.contexts.get(1).priority()).isEqualTo(9);
	}

	@Test
	void aSecondParameterOfAnotherTypeShouldBeRefusedNamingTheMethod() throws NoSuchMethodException {
		class Wrong {

			void handle(String item, String other) {
			}

		}
		assertThatExceptionOfType(InvalidWorkQueueConfigurationException.class)
			.isThrownBy(() -> QueueWorkerMethod.of(new Wrong(),
					Wrong.class.getDeclaredMethod("handle", String.class, String.class), Wrong.class))
			.withMessageContaining("handle(String, String)")
			.withMessageContaining("its second parameter is a java.lang.String, not a " + WorkContext.class.getName());
	}

	/** Records the contexts its worker method was called with. */
	static class ContextRecorder {

		final List<WorkContext> contexts = new CopyOnWriteArrayList<>();

		final List<Boolean> liveDuringCall = new CopyOnWriteArrayList<>();

		WorkResult handle(String item, WorkContext context) {
			this.contexts.add(context);
			context.lease().ifPresent((lease) -> this.liveDuringCall.add(lease.isLive()));
			return work(item, context);
		}

		WorkResult work(String item, WorkContext context) {
			return WorkResult.done();
		}

	}

}
