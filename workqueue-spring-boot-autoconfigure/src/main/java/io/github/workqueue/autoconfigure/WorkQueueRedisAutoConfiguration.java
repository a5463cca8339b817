package io.github.workqueue.autoconfigure;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.workqueue.autoconfigure.internal.LettuceRedisBackend;
import io.github.workqueue.autoconfigure.internal.RedisBackend;
import io.github.workqueue.redis.RedisQueue;

/**
 * Redis queues ({@code workqueue.queues.<name>.backend: redis}) on the connection Spring
 * Boot configures from {@code spring.data.redis.*}: nothing about Redis is configured
 * twice. Active when workqueue-redis and Spring Data Redis are on the class path and Boot
 * made a Lettuce connection factory.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass({ RedisQueue.class, LettuceConnectionFactory.class })
@ConditionalOnBean(LettuceConnectionFactory.class)
public final class WorkQueueRedisAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RedisBackend workQueueRedisBackend(LettuceConnectionFactory connectionFactory,
			ObjectProvider<JsonMapper> jsonMapper, ApplicationEventPublisher events) {
		return new LettuceRedisBackend(connectionFactory, jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()),
				events::publishEvent);
	}

}
