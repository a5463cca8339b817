package io.github.workqueue.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;

/**
 * An observation per processed item, when Micrometer's Observation API is present and
 * {@code workqueue.observation.enabled=true}.
 */
@AutoConfiguration(after = ObservationAutoConfiguration.class, before = WorkQueueAutoConfiguration.class)
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(name = "workqueue.observation.enabled", havingValue = "true")
public final class WorkQueueObservationAutoConfiguration {

	@Bean
	ObservingWorkObserver workQueueWorkObserver(ObservationRegistry registry) {
		return new ObservingWorkObserver(registry);
	}

}
