package io.github.workqueue.kubernetes.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * fabric8's per-retry loggers quieted by default, and the application's own levels
 * winning.
 */
class FabricLogLevelsTest {

	private static final String REFLECTOR = "logging.level.io.fabric8.kubernetes.client.informers.impl.cache.Reflector";

	private static final String WATCH_MANAGER = "logging.level.io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager";

	@Test
	void fabricsRetryLoggersShouldBeQuietByDefault() {
		StandardEnvironment environment = new StandardEnvironment();
		new FabricLogLevels().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(REFLECTOR)).isEqualTo("ERROR");
		assertThat(environment.getProperty(WATCH_MANAGER)).isEqualTo("OFF");
	}

	@Test
	void theApplicationsOwnLevelsShouldWin() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("application", Map.of(REFLECTOR, "WARN", WATCH_MANAGER, "DEBUG")));
		new FabricLogLevels().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(REFLECTOR)).isEqualTo("WARN");
		assertThat(environment.getProperty(WATCH_MANAGER)).isEqualTo("DEBUG");
	}

	@Test
	void springBootShouldFindItAsAnEnvironmentPostProcessor() {
		// Boot's own post-processors need arguments that Boot passes: skipped here.
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation()
			.load(org.springframework.boot.EnvironmentPostProcessor.class, null,
					SpringFactoriesLoader.FailureHandler.handleMessage((message, failure) -> {
					})))
			.hasAtLeastOneElementOfType(FabricLogLevels.class);
	}

}
