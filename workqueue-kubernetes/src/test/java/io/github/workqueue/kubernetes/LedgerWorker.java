package io.github.workqueue.kubernetes;

import java.util.concurrent.ThreadLocalRandom;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.spring.QueueWorker;

/**
 * The worker of one replica in a fault test: each reconcile of a ConfigMap's key takes
 * between {@code test.reconcile.min-millis} and {@code test.reconcile.max-millis}
 * (interruptible) and is written to the {@link Ledger} with the replica's identity, also
 * when it ends by an interrupt.
 */
@Configuration(proxyBeanMethods = false)
class LedgerWorker {

	@Bean
	Reconciler ledgerReconciler(@Value("${workqueue.kubernetes.leader-election.identity:solo}") String replica,
			@Value("${test.reconcile.min-millis:200}") long minMillis,
			@Value("${test.reconcile.max-millis:800}") long maxMillis, ObjectProvider<KubernetesInformers> informers) {
		return new Reconciler(replica, minMillis, maxMillis, informers);
	}

	/** The worker method of the queue {@code configmaps}. */
	static final class Reconciler {

		private final String replica;

		private final long minMillis;

		private final long maxMillis;

		private final ObjectProvider<KubernetesInformers> informers;

		Reconciler(String replica, long minMillis, long maxMillis, ObjectProvider<KubernetesInformers> informers) {
			this.replica = replica;
			this.minMillis = minMillis;
			this.maxMillis = maxMillis;
			this.informers = informers;
		}

		@QueueWorker("configmaps")
		void reconcile(ObjectKey key) throws InterruptedException {
			long start = System.nanoTime();
			KubernetesInformers informers = this.informers.getIfAvailable();
			Ledger.started(this.replica, start,
					(informers != null) ? informers.lastLeaseRenewalNanos() : Long.MIN_VALUE);
			try {
				Thread.sleep(ThreadLocalRandom.current().nextLong(this.minMillis, this.maxMillis + 1));
			}
			finally {
				Ledger.add(key, this.replica, start, System.nanoTime());
			}
		}

	}

}
