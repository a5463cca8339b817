package io.github.workqueue.kubernetes.internal;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.workqueue.kubernetes.ObjectKey;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.OverrunAction;
import io.github.workqueue.spring.QueueWorkerContainer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a deposed replica does at the deadline when the Lease may pass, against a stand-in
 * container whose keys end or not: nothing once they ended, the halt or the interrupt for
 * keys still running, and nothing when it leads again meanwhile.
 */
class WorkDrainTest {

	private final AtomicBoolean idle = new AtomicBoolean();

	private final AtomicInteger interrupts = new AtomicInteger();

	private final AtomicInteger halts = new AtomicInteger();

	private final QueueWorkerContainer container = (QueueWorkerContainer) Proxy.newProxyInstance(
			getClass().getClassLoader(), new Class<?>[] { QueueWorkerContainer.class }, (proxy, method, args) -> {
				switch (method.getName()) {
					case "awaitIdle":
						return this.idle.get();
					case "interruptProcessing":
						this.interrupts.incrementAndGet();
						return null;
					case "processing":
						return List.of(new QueueWorkerContainer.Processing(new ObjectKey("ops", "slow"),
								Duration.ofSeconds(9)));
					default:
						throw new UnsupportedOperationException(method.getName());
				}
			});

	private WorkDrain drain(OverrunAction action) {
		return new WorkDrain(() -> List.of(this.container), action, this.halts::incrementAndGet);
	}

	@Test
	void keysThatEndedInTimeShouldNeedNothingMore() {
		this.idle.set(true);
		drain(OverrunAction.EXIT).beforeTheLeasePasses(System.nanoTime(), () -> false);
		assertThat(this.halts).hasValue(0);
		assertThat(this.interrupts).hasValue(0);
	}

	@Test
	void keysStillRunningShouldHaltTheProcessByDefault() {
		drain(OverrunAction.EXIT).beforeTheLeasePasses(System.nanoTime(), () -> false);
		assertThat(this.halts).hasValue(1);
		assertThat(this.interrupts).hasValue(0);
	}

	@Test
	void keysStillRunningShouldBeInterruptedWhenSoConfigured() {
		drain(OverrunAction.INTERRUPT).beforeTheLeasePasses(System.nanoTime(), () -> false);
		assertThat(this.interrupts).hasValue(1);
		assertThat(this.halts).hasValue(0);
	}

	@Test
	void aReplicaElectedAgainMeanwhileShouldKeepItsKeys() {
		drain(OverrunAction.EXIT).beforeTheLeasePasses(System.nanoTime(), () -> true);
		assertThat(this.halts).hasValue(0);
		assertThat(this.interrupts).hasValue(0);
	}

}
