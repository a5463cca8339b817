package io.github.workqueue.kubernetes.autoconfigure;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties.Informer;

/**
 * Matches when {@code workqueue.kubernetes.informers} configures at least one informer:
 * an application that only has the module on its class path connects to no cluster.
 */
final class InformersConfigured extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		boolean any = Binder.get(context.getEnvironment())
			.bind("workqueue.kubernetes.informers", Bindable.mapOf(String.class, Informer.class))
			.map(Map::isEmpty)
			.map((empty) -> !empty)
			.orElse(false);
		return any ? ConditionOutcome.match("workqueue.kubernetes.informers is set")
				: ConditionOutcome.noMatch("no workqueue.kubernetes.informers");
	}

}
