package io.github.workqueue.core.trace;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.ratelimit.RateLimiters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-memory queue keeps each add's trace context for the processing it causes:
 * deterministic, on the fake clock.
 */
class TracedAddsTest {

	private final FakeClock clock = new FakeClock();

	/** The adding thread's current context, as a tracer would hold it. */
	private @Nullable String current;

	private final RateLimitingQueue<String> queue = WorkQueue.builder()
		.clock(this.clock)
		.traceCapture(() -> this.current)
		.buildRateLimiting(RateLimiters.controllerDefault(this.clock));

	@SuppressWarnings("unchecked")
	static <T> Optional<AddTraces> tracesOf(Object queue, T item) {
		return ((TracedQueue<T>) queue).addTraces(item);
	}

	private AddTraces tracesOfNext(String expected) throws InterruptedException {
		assertThat(this.queue.get(Duration.ZERO)).contains(expected);
		Optional<AddTraces> traces = tracesOf(this.queue, expected);
		assertThat(traces).isPresent();
		return traces.get();
	}

	private void addWith(String context, String item) {
		this.current = context;
		this.queue.add(item);
		this.current = null;
	}

	@Test
	void theFirstAddShouldBeTheParentAndTheAbsorbedAddsTheLinks() throws InterruptedException {
		addWith("c1", "k");
		addWith("c2", "k");
		this.queue.add("k");
		addWith("c3", "k");
		AddTraces traces = tracesOfNext("k");
		assertThat(traces.parent()).isEqualTo("c1");
		assertThat(traces.links()).containsExactly("c2", "c3");
		assertThat(traces.droppedLinks()).isZero();
		assertThat(this.queue.len()).isZero();
	}

	@Test
	void addsBeyondTheLinksBoundShouldBeCounted() throws InterruptedException {
		for (int i = 0; i < 12; i++) {
			addWith("c" + i, "k");
		}
		AddTraces traces = tracesOfNext("k");
		assertThat(traces.parent()).isEqualTo("c0");
		assertThat(traces.links()).hasSize(AddTraces.MAX_LINKS).startsWith("c1").endsWith("c8");
		assertThat(traces.droppedLinks()).isEqualTo(3);
	}

	@Test
	void anAddWhileProcessingShouldBelongToTheNextProcessing() throws InterruptedException {
		addWith("first", "k");
		assertThat(tracesOfNext("k").parent()).isEqualTo("first");
		addWith("during", "k");
		assertThat(tracesOf(this.queue, "k")).get().extracting(AddTraces::parent).isEqualTo("first");
		this.queue.done("k");
		AddTraces next = tracesOfNext("k");
		assertThat(next.parent()).isEqualTo("during");
		assertThat(next.links()).isEmpty();
		this.queue.done("k");
		assertThat(tracesOf(this.queue, "k")).isEmpty();
	}

	@Test
	void delayedAndRateLimitedAddsShouldCarryTheirContext() throws InterruptedException {
		this.current = "delayed";
		this.queue.addAfter("a", Duration.ofSeconds(1));
		this.current = "limited";
		this.queue.addRateLimited("b");
		this.current = "prioritized";
		this.queue.add("c", AddOptions.priority(5).withDelay(Duration.ofSeconds(2)));
		this.current = null;
		this.clock.step(Duration.ofSeconds(2));
		assertThat(tracesOfNext("c").parent()).isEqualTo("prioritized");
		assertThat(tracesOfNext("b").parent()).isEqualTo("limited");
		assertThat(tracesOfNext("a").parent()).isEqualTo("delayed");
	}

	@Test
	void aCarriedContextShouldReplaceTheCurrentOne() throws InterruptedException {
		this.current = "processing span";
		TraceCarry.carrying("original", () -> this.queue.addRateLimited("k"));
		this.clock.step(Duration.ofSeconds(1));
		assertThat(tracesOfNext("k").parent()).isEqualTo("original");
	}

	@Test
	void aRemovedItemsAddsShouldCauseNoTrace() throws InterruptedException {
		addWith("removed", "k");
		assertThat(this.queue.remove("k")).isTrue();
		addWith("kept", "k");
		AddTraces traces = tracesOfNext("k");
		assertThat(traces.parent()).isEqualTo("kept");
		assertThat(traces.links()).isEmpty();
	}

	@Test
	void delayedAddsDiscardedAtShutdownShouldLeaveNoContextBehind() throws InterruptedException {
		this.current = "waiting";
		this.queue.addAfter("k", Duration.ofSeconds(1));
		this.current = "queued";
		this.queue.add("q");
		this.queue.addAfter("q", Duration.ofSeconds(1));
		this.current = null;
		this.queue.shutDown();
		assertThat(this.queue.discardedAtShutdown()).containsExactlyInAnyOrder("k", "q");
		AddTraces queued = tracesOfNext("q");
		assertThat(queued.parent()).isEqualTo("queued");
		assertThat(queued.links()).containsExactly("queued");
		assertThat(this.queue.get(Duration.ZERO)).isEmpty();
	}

	@Test
	void addsWithoutAnAcceptedContextShouldKeepNothing() throws InterruptedException {
		this.queue.add("none");
		addWith("with space", "spaced");
		addWith("x".repeat(AddTraces.MAX_CONTEXT_LENGTH + 1), "long");
		for (String item : new String[] { "none", "spaced", "long" }) {
			assertThat(this.queue.get(Duration.ZERO)).contains(item);
			assertThat(tracesOf(this.queue, item)).isEmpty();
		}
	}

	@Test
	void aQueueWithoutCaptureShouldKeepNothingEvenWhenCarrying() throws InterruptedException {
		WorkQueue<String> plain = WorkQueue.builder().clock(this.clock).build();
		TraceCarry.carrying("original", () -> {
			plain.add("k");
			return null;
		});
		assertThat(plain.get(Duration.ZERO)).contains("k");
		assertThat(tracesOf(plain, "k")).isEmpty();
	}

	@Test
	void theStoredFormShouldReadBack() {
		AddTraces traces = null;
		for (int i = 0; i < 11; i++) {
			traces = AddTraces.plus(traces, "c" + i);
		}
		AddTraces read = AddTraces.decode("11 c0 c1 c2 c3 c4 c5 c6 c7 c8");
		assertThat(read).isEqualTo(traces);
		assertThat(read.droppedLinks()).isEqualTo(2);
		assertThat(AddTraces.decode("1 only").links()).isEmpty();
		assertThat(AddTraces.decode("garbage")).isNull();
		assertThat(AddTraces.decode("x c1")).isNull();
		assertThat(AddTraces.decode(null)).isNull();
	}

}
