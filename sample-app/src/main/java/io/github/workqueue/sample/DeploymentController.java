package io.github.workqueue.sample;

import java.util.Collection;
import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.workqueue.core.AddOptions;
import io.github.workqueue.core.RateLimitingQueue;

/**
 * The API: update a deployment's desired state (which enqueues its key on both queues),
 * read the state, and read the dead letters.
 */
@RestController
@RequestMapping("/api")
public class DeploymentController {

	private final DeploymentStore store;

	private final RateLimitingQueue<String> deployments;

	private final RateLimitingQueue<String> audit;

	private final AuditNotifier notifier;

	public DeploymentController(DeploymentStore store, RateLimitingQueue<String> deployments,
			RateLimitingQueue<String> audit, AuditNotifier notifier) {
		this.store = store;
		this.deployments = deployments;
		this.audit = audit;
		this.notifier = notifier;
	}

	@PutMapping("/deployments/{key}")
	public Deployment update(@PathVariable String key, @RequestBody DesiredState desired) {
		Deployment deployment = this.store.update(key, desired.replicas());
		this.deployments.add(key, AddOptions.priority(Priorities.USER_CHANGE));
		this.audit.add(key);
		return deployment;
	}

	@GetMapping("/deployments/{key}")
	public ResponseEntity<Deployment> get(@PathVariable String key) {
		Deployment deployment = this.store.get(key);
		return (deployment != null) ? ResponseEntity.ok(deployment) : ResponseEntity.notFound().build();
	}

	@GetMapping("/deployments")
	public Collection<Deployment> all() {
		return this.store.all();
	}

	@GetMapping("/dead-letters")
	public List<String> deadLetters() {
		return this.notifier.deadLetters();
	}

	/**
	 * The body of an update.
	 *
	 * @param replicas the desired replicas
	 */
	public record DesiredState(int replicas) {

	}

}
