package io.github.workqueue.kubernetes.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Default levels for the two fabric8 loggers that log every retry of an informer's list
 * or watch (a WARN or an ERROR with a stack trace, several per outage), which this
 * module's informers report instead: once when an outage starts, once when it ends, every
 * failure counted by reason. Added last, so that any {@code logging.level.*} of the
 * application's wins.
 *
 * <p>
 * <b>Concurrency.</b> Stateless; Spring Boot calls it once per application start.
 */
public final class FabricLogLevels implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE = "workqueueKubernetesLogLevels";

	static final Map<String, Object> LEVELS = Map.of(
			"logging.level.io.fabric8.kubernetes.client.informers.impl.cache.Reflector", "ERROR",
			"logging.level.io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager", "OFF");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getPropertySources().contains(PROPERTY_SOURCE)) {
			environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE, LEVELS));
		}
	}

}
