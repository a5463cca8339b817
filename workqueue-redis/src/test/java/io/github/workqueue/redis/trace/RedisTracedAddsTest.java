package io.github.workqueue.redis.trace;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.trace.AddTraces;
import io.github.workqueue.core.trace.TraceCarry;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trace contexts of the adds travel beside each key through Redis, to the instance
 * that takes it: one instance adds, another processes.
 */
class RedisTracedAddsTest {

	private final String name = TestRedis.uniqueName("traced");

	private final List<RedisQueue<String>> queues = new ArrayList<>();

	private final StatefulRedisConnection<String, String> direct = TestRedis.client().connect();

	/** The adding thread's current context, as a tracer would hold it. */
	private volatile @Nullable String current;

	@AfterEach
	void shutDown() {
		this.queues.forEach(RedisQueue::shutDown);
		this.direct.close();
	}

	private RedisQueue<String> instance(String holder, boolean traced) {
		RedisQueueBuilder builder = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.name)
			.holder(holder);
		if (traced) {
			builder.traceCapture(() -> this.current);
		}
		RedisQueue<String> queue = builder.build(ItemCodec.strings());
		this.queues.add(queue);
		return queue;
	}

	private void addWith(RedisQueue<String> queue, String context, String item) {
		this.current = context;
		queue.add(item);
		this.current = null;
	}

	private AddTraces tracesOfNext(RedisQueue<String> queue, String expected) throws InterruptedException {
		assertThat(queue.get(Duration.ofSeconds(5))).contains(expected);
		return queue.addTraces(expected).orElseThrow();
	}

	private List<String> tracesKeys() {
		return this.direct.sync().keys("*" + this.name + "*traces");
	}

	@Test
	void anotherInstanceShouldContinueTheFirstAddAndLinkTheAbsorbedOnes() throws InterruptedException {
		RedisQueue<String> adder = instance("adder", true);
		addWith(adder, "c1", "k");
		addWith(adder, "c2", "k");
		adder.add("k");
		addWith(adder, "c3", "k");
		AddTraces traces = tracesOfNext(instance("worker", false), "k");
		assertThat(traces.parent()).isEqualTo("c1");
		assertThat(traces.links()).containsExactly("c2", "c3");
		assertThat(traces.droppedLinks()).isZero();
		assertThat(tracesKeys()).as("taken with the lease").isEmpty();
	}

	@Test
	void addsBeyondTheLinksBoundShouldBeCounted() throws InterruptedException {
		RedisQueue<String> adder = instance("adder", true);
		for (int i = 0; i < 12; i++) {
			addWith(adder, "c" + i, "k");
		}
		AddTraces traces = tracesOfNext(instance("worker", false), "k");
		assertThat(traces.parent()).isEqualTo("c0");
		assertThat(traces.links()).hasSize(AddTraces.MAX_LINKS).endsWith("c8");
		assertThat(traces.droppedLinks()).isEqualTo(3);
	}

	@Test
	void everyFormOfAddShouldCarryItsContext() throws Exception {
		RedisQueue<String> adder = instance("adder", true);
		this.current = "batched";
		adder.addAll(List.of("all-1", "all-2"));
		this.current = "async";
		adder.addAsync("async").toCompletableFuture().get();
		this.current = "prioritized";
		adder.add("prio", AddOptions.priority(3));
		this.current = "delayed";
		adder.addAfter("delayed", Duration.ofMillis(1));
		this.current = "async-delayed";
		adder.addAfterAsync("async-delayed", Duration.ofMillis(1)).toCompletableFuture().get();
		this.current = "limited";
		adder.addRateLimited("limited");
		this.current = "with-options";
		adder.add("options", AddOptions.delay(Duration.ofMillis(1)).withPriority(2));
		this.current = null;
		RedisQueue<String> worker = instance("worker", false);
		List<String> seen = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			String item = worker.get(Duration.ofSeconds(5)).orElseThrow();
			seen.add(item + "=" + worker.addTraces(item).map(AddTraces::parent).orElse("none"));
			worker.done(item);
		}
		assertThat(seen).containsExactlyInAnyOrder("all-1=batched", "all-2=batched", "async=async", "prio=prioritized",
				"delayed=delayed", "async-delayed=async-delayed", "limited=limited", "options=with-options");
	}

	@Test
	void anAddWhileProcessingShouldBelongToTheNextProcessing() throws InterruptedException {
		RedisQueue<String> adder = instance("adder", true);
		addWith(adder, "first", "k");
		RedisQueue<String> worker = instance("worker", false);
		assertThat(tracesOfNext(worker, "k").parent()).isEqualTo("first");
		addWith(adder, "during", "k");
		assertThat(worker.addTraces("k")).get().extracting(AddTraces::parent).isEqualTo("first");
		worker.done("k");
		AddTraces next = tracesOfNext(worker, "k");
		assertThat(next.parent()).isEqualTo("during");
		assertThat(next.links()).isEmpty();
	}

	@Test
	void aCarriedContextShouldReplaceTheCurrentOne() throws InterruptedException {
		RedisQueue<String> adder = instance("adder", true);
		this.current = "processing span";
		TraceCarry.carrying("original", () -> adder.addRateLimited("k"));
		this.current = null;
		assertThat(tracesOfNext(instance("worker", false), "k").parent()).isEqualTo("original");
	}

	@Test
	void aRemovedItemsContextsShouldGoWithIt() throws InterruptedException {
		RedisQueue<String> adder = instance("adder", true);
		addWith(adder, "removed", "k");
		assertThat(adder.remove("k")).isTrue();
		assertThat(tracesKeys()).isEmpty();
		addWith(adder, "kept", "k");
		AddTraces traces = tracesOfNext(instance("worker", false), "k");
		assertThat(traces.parent()).isEqualTo("kept");
		assertThat(traces.links()).isEmpty();
	}

	@Test
	void withoutACaptureOrACurrentSpanNothingShouldBeStored() throws InterruptedException {
		RedisQueue<String> plain = instance("plain", false);
		RedisQueue<String> traced = instance("traced", true);
		TraceCarry.carrying("carried", () -> {
			plain.add("carried-without-capture");
			return null;
		});
		traced.add("no-current-span");
		plain.addAfter("delayed", Duration.ofMillis(1));
		assertThat(tracesKeys()).isEmpty();
		for (int i = 0; i < 3; i++) {
			String item = plain.get(Duration.ofSeconds(5)).orElseThrow();
			assertThat(plain.addTraces(item)).as(item).isEmpty();
			plain.done(item);
		}
		assertThat(tracesKeys()).isEmpty();
	}

}
