package io.github.workqueue.test;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.redis.RedisQueue;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = RetryingWorkerApplication.class)
@EmbeddedRedisQueues
class RetryingWorkerOnRedisTest extends RetryingWorkerTests {

	@Autowired
	WorkQueueRegistry registry;

	@Test
	void theQueueShouldBeOnTheEmbeddedRedis() {
		assertThat(this.registry.queue("orders")).isInstanceOf(RedisQueue.class);
	}

}
