package io.github.workqueue.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.workqueue.autoconfigure.internal.LettuceRedisBackend;
import io.github.workqueue.autoconfigure.internal.RedisBackend;
import io.github.workqueue.autoconfigure.internal.UnsupportedRedisBackend;
import io.github.workqueue.redis.RedisQueue;

/**
 * Redis queues ({@code workqueue.queues.<name>.backend: redis}) on the connection Spring
 * Boot configures from {@code spring.data.redis.*}, or on the application's own
 * {@link RedisConnectionFactory} bean if it is Lettuce's: nothing about Redis is
 * configured twice. Active when workqueue-redis and Spring Data Redis are on the class
 * path and there is a {@code RedisConnectionFactory}; one that is not Lettuce's (Jedis)
 * leaves memory queues alone and fails a Redis queue at startup, naming what was found.
 * Items are stored by the {@link RedisItemCodecs} bean (strings as they are, other types
 * as JSON through a mapper of its own, never the application's); Redis queues' builders
 * go through the {@link RedisQueueBuilderCustomizer} beans.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass({ RedisQueue.class, LettuceConnectionFactory.class })
@ConditionalOnBean(RedisConnectionFactory.class)
public final class WorkQueueRedisAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RedisItemCodecs workQueueRedisItemCodecs() {
		return RedisItemCodecs.json();
	}

	@Bean
	@ConditionalOnMissingBean
	RedisBackend workQueueRedisBackend(RedisConnectionFactory connectionFactory, RedisItemCodecs codecs,
			ObjectProvider<RedisQueueBuilderCustomizer> customizers, ApplicationEventPublisher events) {
		if (connectionFactory instanceof LettuceConnectionFactory lettuce) {
			return new LettuceRedisBackend(lettuce, codecs, customizers.orderedStream().toList(), events::publishEvent);
		}
		return new UnsupportedRedisBackend(connectionFactory.getClass().getName());
	}

}
