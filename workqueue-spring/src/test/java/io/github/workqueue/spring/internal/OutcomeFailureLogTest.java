package io.github.workqueue.spring.internal;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run of alike outcome failures (an outage) logs one stack trace, then a counted line a
 * minute; the time is given.
 */
class OutcomeFailureLogTest {

	private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

	private final AtomicLong now = new AtomicLong();

	private final OutcomeFailureLog log = new OutcomeFailureLog(recording(), this.now::get);

	@Test
	void aRunOfAlikeFailuresShouldLogOneStackTraceThenACountAMinute() {
		for (int i = 0; i < 100; i++) {
			this.log.failed("item " + i + " failed", new IllegalStateException("down"));
			this.now.addAndGet(Duration.ofMillis(100).toNanos());
		}
		assertThat(this.lines).hasSize(1);
		assertThat(this.lines.get(0)).startsWith("error: item 0 failed").endsWith("with a stack trace");
		this.now.addAndGet(Duration.ofMinutes(1).toNanos());
		this.log.failed("item 100 failed", new IllegalStateException("down"));
		assertThat(this.lines).hasSize(2);
		assertThat(this.lines.get(1)).startsWith("warn: item 100 failed: java.lang.IllegalStateException: down; 100 ")
			.doesNotContain("stack trace");
		this.log.failed("item 101 failed", new IllegalStateException("down"));
		this.log.succeeded();
		assertThat(this.lines).hasSize(3);
		assertThat(this.lines.get(2)).isEqualTo("warn: Outcomes are handled again; 1 more failed before, unlogged");
	}

	@Test
	void aFailureOfAnotherKindOrAfterASuccessShouldHaveItsStackTrace() {
		this.log.failed("a", new IllegalStateException("down"));
		this.log.failed("b", new IllegalArgumentException("bad"));
		this.log.succeeded();
		this.log.failed("c", new IllegalArgumentException("bad"));
		assertThat(this.lines).extracting((line) -> line.substring(0, line.indexOf(' ')))
			.containsExactly("error:", "error:", "error:");
	}

	@Test
	void alikeFailuresOnManyThreadsShouldLogOneStackTraceAndCountEveryOtherFailure() throws Exception {
		int threads = 8;
		int each = 2_000;
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				for (int i = 0; i < each; i++) {
					this.log.failed("failed", new IllegalStateException("down"));
				}
			});
			worker.start();
			workers.add(worker);
		}
		start.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		this.log.succeeded();
		assertThat(this.lines).containsExactly(
				"error: failed (later failures like it are counted, not logged one by "
						+ "one, until an outcome is handled again) with a stack trace",
				"warn: Outcomes are handled again; " + (threads * each - 1) + " more failed before, unlogged");
	}

	@Test
	void successesWithoutFailuresShouldLogNothing() {
		this.log.succeeded();
		this.log.succeeded();
		assertThat(this.lines).isEmpty();
	}

	/** A Log whose error and warn lines are kept, with whether a stack trace came. */
	private Log recording() {
		return (Log) Proxy.newProxyInstance(Log.class.getClassLoader(), new Class<?>[] { Log.class },
				(proxy, method, args) -> {
					if (method.getName().equals("error") || method.getName().equals("warn")) {
						this.lines.add(method.getName() + ": " + args[0]
								+ ((args.length > 1 && args[1] != null) ? " with a stack trace" : ""));
					}
					return (method.getReturnType() == boolean.class) ? Boolean.TRUE : null;
				});
	}

}
