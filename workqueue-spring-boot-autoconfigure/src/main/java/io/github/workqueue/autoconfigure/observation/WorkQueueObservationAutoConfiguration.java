package io.github.workqueue.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.spring.internal.WorkObserver;

/**
 * An observation per processed item, when Micrometer's Observation API is present and
 * {@code workqueue.observation.enabled=true}, named and tagged by the application's
 * {@link WorkQueueObservationConvention} bean if there is one. A {@code WorkObserver}
 * bean of the application's own replaces it: one observer wraps each processing, and the
 * application's wins.
 */
@AutoConfiguration(after = ObservationAutoConfiguration.class, before = WorkQueueAutoConfiguration.class)
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(name = "workqueue.observation.enabled", havingValue = "true")
public final class WorkQueueObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(WorkObserver.class)
	ObservingWorkObserver workQueueWorkObserver(ObservationRegistry registry,
			ObjectProvider<WorkQueueObservationConvention> convention) {
		return new ObservingWorkObserver(registry, convention.getIfUnique());
	}

}
