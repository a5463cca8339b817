package io.github.workqueue.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.spring.QueueWorkerRegistry;

/**
 * The {@code workqueues} health contributor, when Spring Boot's health module is on the
 * classpath, under the component name {@code workqueues} with one component per queue;
 * {@code management.health.workqueues.enabled=false} turns it off.
 */
@AutoConfiguration(after = WorkQueueAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("workqueues")
@EnableConfigurationProperties(WorkQueuesHealthProperties.class)
public final class WorkQueuesHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "workqueuesHealthContributor")
	WorkQueuesHealthContributor workqueuesHealthContributor(QueueWorkerRegistry workers, WorkQueueRegistry queues,
			WorkQueuesHealthProperties properties) {
		return new WorkQueuesHealthContributor(workers, queues, properties.getStuckThreshold());
	}

}
