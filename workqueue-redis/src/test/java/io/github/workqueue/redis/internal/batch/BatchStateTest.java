package io.github.workqueue.redis.internal.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.github.workqueue.redis.internal.link.SentScript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link BatchState}'s rules: a step reads the time under its monitor (a take that waited
 * for the monitor while a reply buffered a lease must not see that lease as buffered
 * before the take began: its queue wait would be negative, which the metrics refuse); a
 * sender that ends, by a failure, while work is left is started again; a shard has at
 * most two parts on their way, made in the order asked, and none new while a part that
 * went again is on its way; a hint that finds no taker waiting is passed on by the
 * sender, once, never by the thread the hint ended on (a Lettuce event loop). No sender
 * is attached here, so starting one only marks it running.
 */
class BatchStateTest {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private static BatchState state() {
		long start = System.nanoTime();
		return new BatchState(new PendingRequests(1, start), new LeaseAsks(1, SECOND),
				new LeaseAheadBuffer(new LeaseAheadSizing(4, false), Duration.ofSeconds(30), 1, SECOND, start),
				new SentParts(1));
	}

	@Test
	void aSenderThatEndsWithWorkLeftShouldBeStartedAgain() {
		BatchState state = state();
		assertThat(state.senderRunning()).isFalse();
		state.queueAdd(new BatchRequest.Add(0, "item"), null);
		assertThat(state.senderRunning()).as("a request starts one").isTrue();
		state.senderEnded();
		assertThat(state.senderRunning()).as("the add is still pending: another starts").isTrue();
	}

	@Test
	void aSenderThatEndsWithNothingLeftShouldNotBeStartedAgain() {
		BatchState state = state();
		state.take(new Taker(), Long.MIN_VALUE, new ArrayList<>());
		assertThat(state.senderRunning()).as("a taker starts one").isTrue();
		state.shutDown();
		state.senderEnded();
		assertThat(state.senderRunning()).as("the taker was released at shutdown: nothing left").isFalse();
	}

	@Test
	void aTakeShouldReadTheTimeOnceItHoldsTheMonitor() throws Exception {
		BatchState state = state();
		AtomicReference<BatchState.Take> taken = new AtomicReference<>();
		Thread taker = new Thread(() -> taken.set(state.take(new Taker(), Long.MIN_VALUE, new ArrayList<>())));
		synchronized (state) {
			taker.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> taker.getState() == Thread.State.BLOCKED);
			Thread.sleep(5);
			// A reply buffers a lease queued for 0 µs while the taker waits for the
			// monitor.
			Grant queuedForNothing = new Grant(0, "item", 1, Long.MAX_VALUE, 0, 0, System.nanoTime(), null);
			assertThat(state.serve(List.of(queuedForNothing), new ArrayList<>())).as("kept in the buffer").isEmpty();
		}
		taker.join();
		assertThat(taken.get().ready()).isNotNull();
		assertThat(taken.get().ready().queuedMicros()).as("its time queued, and then in the buffer")
			.isGreaterThanOrEqualTo(0);
	}

	@Test
	void aHintThatFindsNoTakerShouldBePassedOnByTheSenderOnce() {
		BatchState state = state();
		state.hinted(0);
		assertThat(state.senderRunning()).as("the hint starts a sender to pass it on").isTrue();
		assertThat(state.nextStep().passOn()).as("the sender's next step passes it on").containsExactly(0);
		assertThat(state.nextStep().passOn()).as("once").isEmpty();
	}

	@Test
	void aHintThatATakerWaitedForShouldNotBePassedOn() {
		BatchState state = state();
		state.take(new Taker(), Long.MIN_VALUE, new ArrayList<>());
		state.hinted(0);
		assertThat(state.nextStep().passOn()).as("the taker here asks again instead").isEmpty();
	}

	@Test
	void aHintAtShutdownShouldNotBePassedOn() {
		BatchState state = state();
		state.shutDown();
		state.hinted(0);
		assertThat(state.senderRunning()).isFalse();
		assertThat(state.nextStep().passOn()).isEmpty();
	}

	@Test
	void aShardShouldHaveAtMostTwoPartsOnTheirWay() {
		BatchState state = state();
		SentPart a = sendAdd(state, "a");
		sendAdd(state, "b");
		state.queueAdd(new BatchRequest.Add(0, "c"), null);
		BatchState.SenderStep step = state.nextStep();
		assertThat(step.batch()).as("two on their way: c waits for one of them").isNull();
		assertThat(step.parkNanos()).as("until a landing or a deadline").isPositive();
		state.landed(a);
		assertThat(state.nextStep().landed()).containsExactly(a);
		state.reading(a);
		assertThat(addsOf(state.nextStep().batch())).containsExactly("c");
	}

	@Test
	void aShardWhosePartWentAgainShouldTakeNoNewPartUntilItHasNoneOnItsWay() {
		BatchState state = state();
		SentPart a = sendAdd(state, "a");
		SentPart b = sendAdd(state, "b");
		state.landed(a);
		assertThat(state.nextStep().landed()).containsExactly(a);
		state.reading(a);
		SentPart again = onItsWay(new BatchPlanner.Part(a.part, a.takers));
		state.sentAgain(again);
		state.landed(b);
		assertThat(state.nextStep().landed()).containsExactly(b);
		state.reading(b);
		state.queueAdd(new BatchRequest.Add(0, "c"), null);
		assertThat(state.nextStep().batch()).as("a slot is free, but a's second try is on its way").isNull();
		state.landed(again);
		assertThat(state.nextStep().landed()).containsExactly(again);
		state.reading(again);
		assertThat(addsOf(state.nextStep().batch())).as("none on its way: mended").containsExactly("c");
	}

	/** Queues an add, and sends the part the sender's next step makes of it. */
	private static SentPart sendAdd(BatchState state, String item) {
		state.queueAdd(new BatchRequest.Add(0, item), null);
		List<BatchPlanner.Part> batch = state.nextStep().batch();
		assertThat(addsOf(batch)).as("the part made for " + item).containsExactly(item);
		SentPart sentPart = onItsWay(batch.get(0));
		state.sent(List.of(sentPart));
		return sentPart;
	}

	/** A part sent, whose reply has not come. */
	private static SentPart onItsWay(BatchPlanner.Part planned) {
		return SentPart.sent(planned.part(), planned.takers(), System.nanoTime(),
				new SentScript<>(new CompletableFuture<>(), null, Duration.ofSeconds(30), null));
	}

	private static List<String> addsOf(List<BatchPlanner.Part> batch) {
		assertThat(batch).as("a batch of one part").isNotNull().hasSize(1);
		return batch.get(0).part().adds().stream().map((add) -> add.encoded).toList();
	}

}
