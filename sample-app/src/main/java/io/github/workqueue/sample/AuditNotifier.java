package io.github.workqueue.sample;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import io.github.workqueue.spring.ItemGivenUpEvent;
import io.github.workqueue.spring.QueueWorker;

/**
 * Sends an audit record per update downstream, on its own queue with a fast-slow limiter
 * and a retry limit; records that cannot be sent are parked as dead letters.
 */
@Component
public class AuditNotifier {

	private static final Log logger = LogFactory.getLog(AuditNotifier.class);

	private final DeploymentStore store;

	private final FlakyDownstream downstream;

	private final List<String> deadLetters = new CopyOnWriteArrayList<>();

	public AuditNotifier(DeploymentStore store, FlakyDownstream downstream) {
		this.store = store;
		this.downstream = downstream;
	}

	@QueueWorker("audit")
	public void send(String key) throws InterruptedException {
		Deployment deployment = this.store.get(key);
		if (deployment != null) {
			this.downstream.apply(deployment);
			logger.info("Audited " + key + " at generation " + deployment.generation());
		}
	}

	@EventListener
	public void onGivenUp(ItemGivenUpEvent event) {
		this.deadLetters.add(event.getQueueName() + ":" + event.getItem());
		logger.warn("Gave up " + event.getItem() + " from queue " + event.getQueueName() + " after "
				+ event.getAttempts() + " attempts: " + event.getFailure().getMessage());
	}

	public List<String> deadLetters() {
		return List.copyOf(this.deadLetters);
	}

}
