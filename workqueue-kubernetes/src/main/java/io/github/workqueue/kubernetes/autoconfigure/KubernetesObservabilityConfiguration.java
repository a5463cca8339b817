package io.github.workqueue.kubernetes.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.kubernetes.internal.KubernetesInformers;

/**
 * The informers in the health ({@code kubernetesInformers}, off with
 * {@code management.health.kubernetesinformers.enabled=false} like Spring Boot's own
 * indicators) and in Micrometer, when those are on the class path.
 */
@Configuration(proxyBeanMethods = false)
final class KubernetesObservabilityConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	@ConditionalOnEnabledHealthIndicator("kubernetesinformers")
	static final class Health {

		@Bean
		KubernetesInformersHealthIndicator kubernetesInformersHealthIndicator(KubernetesInformers informers) {
			return new KubernetesInformersHealthIndicator(informers);
		}

	}

	@Bean
	KubernetesInformerDetails kubernetesInformerDetails(KubernetesInformers informers) {
		return new KubernetesInformerDetails(informers);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static final class Metrics {

		@Bean
		KubernetesInformerMetrics kubernetesInformerMetrics(KubernetesInformers informers, MeterRegistry registry) {
			return new KubernetesInformerMetrics(informers, registry);
		}

	}

}
