package io.github.workqueue.spring;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @QueueWorker} method is called by reflection: in a native image it must be
 * registered for invocation, as Spring does for {@code @EventListener} and
 * {@code @Scheduled} methods, through {@code @Reflective}.
 */
class QueueWorkerHintsTest {

	@Test
	void aQueueWorkerMethodShouldBeRegisteredForInvocation() throws NoSuchMethodException {
		RuntimeHints hints = new RuntimeHints();
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, Reconciler.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Reconciler.class.getDeclaredMethod("reconcile", String.class))).accepts(hints);
	}

	static class Reconciler {

		@QueueWorker("orders")
		void reconcile(String key) {
		}

	}

}
