package io.github.workqueue.test.internal;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FakeClock;

/**
 * What {@code workqueue-test} adds to an application context on the test class path: the
 * queues' {@link FakeClock} when {@code workqueue.test.fake-clock=true} (and the
 * application declares no {@link Clock} of its own), and the {@link OutcomeRecorder} that
 * every worker container tells. Before the queues' auto-configuration, which reads the
 * clock; {@link QueueTesterAutoConfiguration} comes after it.
 */
@AutoConfiguration(before = WorkQueueAutoConfiguration.class)
public final class WorkQueueTestAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OutcomeRecorder workQueueOutcomeRecorder(ObjectProvider<Clock> clock) {
		// Read at each call: the clock bean is made after this one.
		return new OutcomeRecorder(() -> clock.getIfAvailable(Clock::system).nanoTime());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "workqueue.test.fake-clock", havingValue = "true")
	static class FakeClockConfiguration {

		@Bean
		@ConditionalOnMissingBean(Clock.class)
		FakeClock workQueueFakeClock() {
			return new FakeClock();
		}

	}

}
