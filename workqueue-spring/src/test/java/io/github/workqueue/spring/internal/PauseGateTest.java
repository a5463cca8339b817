package io.github.workqueue.spring.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PauseGateTest {

	@Test
	void eachChangeShouldTellWhetherTheGateIsClosedCountingHolds() {
		List<Boolean> heard = new ArrayList<>();
		PauseGate gate = new PauseGate(heard::add);
		gate.hold("leader");
		gate.pause();
		gate.resume();
		gate.release("leader");
		gate.pause();
		gate.resume();
		// The resume while held leaves the gate closed, and says so.
		assertThat(heard).containsExactly(true, true, true, false, true, false);
	}

	@Test
	void theLastWordShouldBeTheGatesStateWhenAPauseAndAResumeRace() throws Exception {
		AtomicReference<Boolean> last = new AtomicReference<>();
		for (int round = 0; round < 2_000; round++) {
			PauseGate gate = new PauseGate(last::set);
			gate.pause();
			CyclicBarrier start = new CyclicBarrier(2);
			Thread resumer = new Thread(() -> {
				await(start);
				gate.resume();
			});
			resumer.start();
			await(start);
			gate.pause();
			resumer.join();
			assertThat(last.get()).as("round %d", round).isEqualTo(gate.isPaused());
		}
	}

	private static void await(CyclicBarrier barrier) {
		try {
			barrier.await();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
