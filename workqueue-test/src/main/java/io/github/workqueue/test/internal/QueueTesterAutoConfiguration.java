package io.github.workqueue.test.internal;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.test.QueueTester;

/**
 * The {@link QueueTester} of an application context that has queues and worker
 * containers; after the queues' auto-configuration, which makes them.
 */
@AutoConfiguration(after = WorkQueueAutoConfiguration.class)
@ConditionalOnBean({ WorkQueueRegistry.class, QueueWorkerRegistry.class })
public final class QueueTesterAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	QueueTester queueTester(WorkQueueRegistry queues, QueueWorkerRegistry workers, OutcomeRecorder recorder,
			ObjectProvider<Clock> clock) {
		return new QueueTester(queues, workers, recorder,
				(clock.getIfAvailable() instanceof FakeClock fake) ? fake : null);
	}

}
