package io.github.workqueue.kubernetes.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

import io.github.workqueue.kubernetes.internal.InformerFeed;
import io.github.workqueue.kubernetes.internal.KubernetesInformers;
import io.github.workqueue.spring.ItemProcessingListener;

/**
 * Tells an informer-fed queue's informers when its workers start and end a key, so that a
 * deleted object's last state is let go once the key was processed with nothing pending.
 * The informers are looked up at the first call: they depend on the worker registry,
 * which takes this listener.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the informers, once found, are kept in a volatile
 * field (finding them twice is harmless).
 */
final class DeletedStatesListener implements ItemProcessingListener {

	private final ObjectProvider<KubernetesInformers> informers;

	private volatile @Nullable KubernetesInformers found;

	DeletedStatesListener(ObjectProvider<KubernetesInformers> informers) {
		this.informers = informers;
	}

	@Override
	public void started(String queueName, Object item) {
		InformerFeed<?> feed = feed(queueName);
		if (feed != null) {
			feed.processingStarted(item);
		}
	}

	@Override
	public void ended(String queueName, Object item, boolean requeued) {
		InformerFeed<?> feed = feed(queueName);
		if (feed != null) {
			feed.processingEnded(item, requeued);
		}
	}

	private @Nullable InformerFeed<?> feed(String queueName) {
		KubernetesInformers all = this.found;
		if (all == null) {
			all = this.informers.getObject();
			this.found = all;
		}
		return all.feedOrNull(queueName);
	}

}
