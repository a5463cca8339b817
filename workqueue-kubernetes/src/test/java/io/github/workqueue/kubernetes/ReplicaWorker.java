package io.github.workqueue.kubernetes;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.spring.QueueWorker;

/**
 * The worker of one replica in a test of several: counts what it processed, and counts a
 * key that another replica was processing at the same moment ({@link #OVERLAPS}), which
 * the queue's rules never allow. Each test resets the shared records first.
 */
@Configuration(proxyBeanMethods = false)
class ReplicaWorker {

	/** Keys being processed now, by any replica. */
	static final Set<ObjectKey> IN_PROGRESS = ConcurrentHashMap.newKeySet();

	/** Keys found being processed by another replica when this one started them. */
	static final AtomicInteger OVERLAPS = new AtomicInteger();

	private final Map<ObjectKey, AtomicInteger> counts = new ConcurrentHashMap<>();

	static void reset() {
		IN_PROGRESS.clear();
		OVERLAPS.set(0);
	}

	@Bean
	ConfigMaps configMapsWorker() {
		return new ConfigMaps(this.counts);
	}

	int count(ObjectKey key) {
		AtomicInteger count = this.counts.get(key);
		return (count != null) ? count.get() : 0;
	}

	int total() {
		return this.counts.values().stream().mapToInt(AtomicInteger::get).sum();
	}

	/** The worker method of the queue {@code configmaps}. */
	static final class ConfigMaps {

		private final Map<ObjectKey, AtomicInteger> counts;

		ConfigMaps(Map<ObjectKey, AtomicInteger> counts) {
			this.counts = counts;
		}

		@QueueWorker("configmaps")
		void reconcile(ObjectKey key) throws InterruptedException {
			if (!IN_PROGRESS.add(key)) {
				OVERLAPS.incrementAndGet();
			}
			try {
				Thread.sleep(10);
				this.counts.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			}
			finally {
				IN_PROGRESS.remove(key);
			}
		}

	}

}
