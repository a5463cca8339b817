package io.github.workqueue.redis.failover;

import java.time.Duration;
import java.util.Optional;

import io.github.workqueue.core.FakeClock;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A {@code remove} of an item this instance leased ahead, whose request is lost on the
 * way (held by a {@link FaultProxy}, then the connection reset): the lease it took out of
 * the buffer goes back to Redis, so another instance takes the item at once rather than
 * after the lease expired. Redis's time is a fake clock that the test never moves, so a
 * lease left behind would never expire here.
 */
class UnansweredRemoveTest {

	private final String name = TestRedis.uniqueName("unanswered-remove");

	private final FakeClock clock = new FakeClock();

	private FaultProxy proxy;

	private RedisQueue<String> leasingAhead;

	private RedisQueueConnection direct;

	private RedisQueue<String> other;

	@BeforeEach
	void start() throws Exception {
		this.proxy = new FaultProxy(RedisURI.create(TestRedis.uri()));
		this.leasingAhead = RedisQueue.builder(this.proxy.connection(Duration.ofMillis(500)), this.name)
			.holder("a")
			.timeForTests(this.clock)
			.prefetch(3)
			.adaptivePrefetch(false)
			.build(ItemCodec.strings());
		this.direct = RedisQueueConnection.of(TestRedis.client());
		this.other = RedisQueue.builder(this.direct, this.name)
			.holder("b")
			.timeForTests(this.clock)
			.prefetch(0)
			.build(ItemCodec.strings());
	}

	@AfterEach
	void stop() {
		this.other.shutDown();
		this.leasingAhead.shutDown();
		this.proxy.close();
		this.direct.close();
	}

	@Test
	void aRemoveThatGotNoAnswerShouldGiveBackTheLeaseItTookOutOfTheBuffer() throws InterruptedException {
		for (String item : new String[] { "p", "q", "r", "s" }) {
			this.other.add(item);
		}
		assertThat(this.leasingAhead.get(Duration.ofSeconds(5))).contains("p");
		assertThat(this.other.inFlight()).as("p taken, q, r and s leased ahead by a").hasSize(4);
		this.proxy.holdRequests(true);
		assertThatExceptionOfType(RedisException.class).isThrownBy(() -> this.leasingAhead.remove("r"));
		// The remove and the give-back behind it are lost with the connection.
		this.proxy.reset();
		this.proxy.heal();
		Optional<String> taken = this.other.get(Duration.ofSeconds(10));
		assertThat(taken).as("r went back to the queue, for b to take").contains("r");
	}

}
