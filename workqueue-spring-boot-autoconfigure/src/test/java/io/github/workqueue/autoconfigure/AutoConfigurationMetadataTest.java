package io.github.workqueue.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot filters auto-configurations by their conditions before it loads their
 * classes when the jar carries {@code spring-autoconfigure-metadata.properties}, written
 * by {@code spring-boot-autoconfigure-processor}: every auto-configuration of this module
 * must be in it, with its class conditions.
 */
class AutoConfigurationMetadataTest {

	@Test
	void everyAutoConfigurationShouldBeDescribedForBootsEarlyFiltering() throws IOException {
		Properties metadata = new Properties();
		try (InputStream in = getClass().getClassLoader()
			.getResourceAsStream("META-INF/spring-autoconfigure-metadata.properties")) {
			assertThat(in).as("META-INF/spring-autoconfigure-metadata.properties").isNotNull();
			metadata.load(in);
		}
		for (String candidate : ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())) {
			if (candidate.startsWith("io.github.workqueue.autoconfigure.")) {
				assertThat(metadata).as(candidate).containsKey(candidate);
			}
		}
		assertThat(metadata.getProperty(WorkQueueRedisAutoConfiguration.class.getName() + ".ConditionalOnClass"))
			.contains("io.github.workqueue.redis.RedisQueue");
	}

}
