package io.github.workqueue.kubernetes.autoconfigure;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueProperties;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.kubernetes.KubernetesController;
import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.spring.QueueWorkerRegistry;

/**
 * Informers that feed queues, their listers as beans ({@code <queue>Lister}), and leader
 * election, when {@code workqueue.kubernetes.informers} names at least one queue. Uses
 * the application's {@link KubernetesClient} bean, or one built from the usual sources
 * (kubeconfig, the in-cluster service account, {@code KUBERNETES_*} variables).
 */
@AutoConfiguration(after = WorkQueueAutoConfiguration.class)
@ConditionalOnClass(KubernetesClient.class)
@Conditional(InformersConfigured.class)
@EnableConfigurationProperties(WorkQueueKubernetesProperties.class)
@Import({ ListerRegistrar.class, KubernetesObservabilityConfiguration.class })
public final class WorkQueueKubernetesAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	KubernetesClient kubernetesClient() {
		return new KubernetesClientBuilder().build();
	}

	@Bean
	DeletedStatesListener kubernetesDeletedStatesListener(ObjectProvider<KubernetesInformers> informers) {
		return new DeletedStatesListener(informers);
	}

	@Bean
	KubernetesInformers kubernetesInformers(KubernetesClient client, WorkQueueKubernetesProperties properties,
			WorkQueueRegistry queues, QueueWorkerRegistry workers, WorkQueueProperties workQueueProperties,
			ObjectProvider<KubernetesController<?>> controllers, Environment environment) {
		return new KubernetesInformers(client, properties, queues::getOrCreateQueue, workers,
				environment.getProperty("spring.application.name"), workQueueProperties.getShutdown().getTimeout(),
				controllers.orderedStream().toList());
	}

}
