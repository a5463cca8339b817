package io.github.workqueue.autoconfigure.redis;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.workqueue.autoconfigure.RedisItemCodecs;
import io.github.workqueue.autoconfigure.RedisQueueBuilderCustomizer;
import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.internal.LettuceRedisBackend;
import io.github.workqueue.autoconfigure.internal.RedisBackend;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The beans around a Redis queue that an application may rely on or replace: the item
 * codecs (whose stored form must not follow the application's JSON settings), the builder
 * customizers, and the connection factory it is found from.
 */
class RedisBackendBeansTest {

	private final String queue = TestRedis.uniqueName("beans");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, DataRedisAutoConfiguration.class,
				WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.url=" + TestRedis.uri());

	record OrderKey(String tenantId, long orderId) {
	}

	@Test
	void theStoredFormOfAKeyShouldNotFollowTheApplicationsJsonSettings() {
		OrderKey key = new OrderKey("acme", 42);
		String expected = "{\"tenantId\":\"acme\",\"orderId\":42}";
		this.runner
			.run((context) -> assertThat(encode(context.getBean(RedisItemCodecs.class), key)).isEqualTo(expected));
		this.runner
			.withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE",
					"spring.jackson.default-property-inclusion=non_default")
			.run((context) -> {
				assertThat(context.getBean(tools.jackson.databind.json.JsonMapper.class).writeValueAsString(key))
					.as("the application's own mapper follows its settings")
					.contains("tenant_id");
				assertThat(encode(context.getBean(RedisItemCodecs.class), key)).isEqualTo(expected);
			});
	}

	@Test
	void aCodecsBeanOfTheApplicationsShouldPinTheStoredForm() {
		List<String> asked = new CopyOnWriteArrayList<>();
		RedisItemCodecs pinned = new RedisItemCodecs() {

			@Override
			public <T> ItemCodec<T> codecFor(String queueName, Class<T> itemType) {
				asked.add(queueName + ":" + itemType.getSimpleName());
				return RedisItemCodecs.json().codecFor(queueName, itemType);
			}

		};
		this.runner.withBean(RedisItemCodecs.class, () -> pinned)
			.withPropertyValues("workqueue.queues." + this.queue + ".backend=redis")
			.run((context) -> {
				assertThat(context).hasSingleBean(RedisItemCodecs.class);
				assertThat(context.getBean(WorkQueueRegistry.class).getOrCreateQueue(this.queue))
					.isInstanceOf(RedisQueue.class);
				assertThat(asked).containsExactly(this.queue + ":String");
			});
	}

	@Test
	void redisQueueBuilderCustomizersShouldRunForEveryRedisQueue() {
		List<String> customized = new CopyOnWriteArrayList<>();
		this.runner
			.withBean(RedisQueueBuilderCustomizer.class,
					() -> (queueName, builder) -> customized.add(queueName + ":" + builder.getClass().getSimpleName()))
			.withPropertyValues("workqueue.queues." + this.queue + ".backend=redis")
			.run((context) -> {
				context.getBean(WorkQueueRegistry.class).getOrCreateQueue(this.queue);
				assertThat(customized).containsExactly(this.queue + ":RedisQueueBuilder");
			});
	}

	@Test
	void aLettuceFactoryDeclaredAsARedisConnectionFactoryShouldBeFound() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
			.withBean("redisConnectionFactory", RedisConnectionFactory.class, () -> {
				java.net.URI uri = java.net.URI.create(TestRedis.uri());
				return new LettuceConnectionFactory(new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
			})
			.withPropertyValues("workqueue.queues." + this.queue + ".backend=redis")
			.run((context) -> {
				assertThat(context.getBean(RedisBackend.class)).isInstanceOf(LettuceRedisBackend.class);
				assertThat(context.getBean(WorkQueueRegistry.class).getOrCreateQueue(this.queue))
					.isInstanceOf(RedisQueue.class);
			});
	}

	@Test
	void aFactoryThatIsNotLettucesShouldFailARedisQueueNamingWhatWasFoundAndLeaveMemoryQueuesAlone() {
		ApplicationContextRunner other = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
			.withBean("redisConnectionFactory", RedisConnectionFactory.class, OtherConnectionFactory::new)
			.withPropertyValues("workqueue.queues.local.workers=1");
		other.run((context) -> assertThat(context).hasNotFailed());
		other.withPropertyValues("workqueue.queues." + this.queue + ".backend=redis")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidWorkQueueConfigurationException.class)
				.hasMessageContaining("workqueue.queues." + this.queue + ".backend")
				.hasMessageContaining(OtherConnectionFactory.class.getName())
				.hasMessageContaining("Lettuce"));
	}

	private static String encode(RedisItemCodecs codecs, OrderKey key) {
		return codecs.codecFor("orders", OrderKey.class).encode(key);
	}

	/** A connection factory of another client, as Jedis's would be. */
	static final class OtherConnectionFactory implements RedisConnectionFactory {

		@Override
		public RedisConnection getConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public RedisClusterConnection getClusterConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean getConvertPipelineAndTxResults() {
			return false;
		}

		@Override
		public RedisSentinelConnection getSentinelConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
			return null;
		}

	}

}
