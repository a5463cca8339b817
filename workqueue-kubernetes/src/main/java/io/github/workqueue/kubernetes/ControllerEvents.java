package io.github.workqueue.kubernetes;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Kubernetes Events ({@code events.k8s.io/v1}) about what a reconcile did to an object,
 * as {@code kubectl describe} shows them: {@code Normal} for what went as intended,
 * {@code Warning} for what an operator should look at. Each names this controller and
 * this replica.
 *
 * <p>
 * <b>Concurrency.</b> Immutable; safe from any thread.
 */
public final class ControllerEvents {

	private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
			Locale.ROOT);

	private final KubernetesClient client;

	private final String controller;

	private final String instance;

	/**
	 * @param client the client
	 * @param controller the controller's name, such as {@code example.io/shop-controller}
	 * @param instance this replica's name, such as its pod's
	 */
	public ControllerEvents(KubernetesClient client, String controller, String instance) {
		this.client = Objects.requireNonNull(client, "client");
		this.controller = Objects.requireNonNull(controller, "controller");
		this.instance = Objects.requireNonNull(instance, "instance");
	}

	/**
	 * Records that something went as intended.
	 * @param regarding the object it happened to
	 * @param reason why, in UpperCamelCase, such as {@code Reconciled}
	 * @param action what the controller did, such as {@code Reconcile}
	 * @param note a human-readable sentence
	 * @return the event written
	 */
	public Event normal(HasMetadata regarding, String reason, String action, String note) {
		return record("Normal", regarding, reason, action, note);
	}

	/**
	 * Records something an operator should look at.
	 * @param regarding the object it happened to
	 * @param reason why, in UpperCamelCase, such as {@code QuotaExceeded}
	 * @param action what the controller tried, such as {@code Reconcile}
	 * @param note a human-readable sentence
	 * @return the event written
	 */
	public Event warning(HasMetadata regarding, String reason, String action, String note) {
		return record("Warning", regarding, reason, action, note);
	}

	private Event record(String type, HasMetadata regarding, String reason, String action, String note) {
		String namespace = (regarding.getMetadata().getNamespace() != null) ? regarding.getMetadata().getNamespace()
				: "default";
		Event event = new EventBuilder().withNewMetadata()
			.withName(regarding.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
			.withNamespace(namespace)
			.endMetadata()
			.withType(type)
			.withReason(reason)
			.withAction(action)
			.withNote(note)
			.withEventTime(new MicroTime(MICRO_TIME.format(ZonedDateTime.now(ZoneOffset.UTC))))
			.withReportingController(this.controller)
			.withReportingInstance(this.instance)
			.withRegarding(new ObjectReferenceBuilder().withApiVersion(regarding.getApiVersion())
				.withKind(regarding.getKind())
				.withName(regarding.getMetadata().getName())
				.withNamespace(regarding.getMetadata().getNamespace())
				.withUid(regarding.getMetadata().getUid())
				.withResourceVersion(regarding.getMetadata().getResourceVersion())
				.build())
			.build();
		return this.client.events().v1().events().inNamespace(namespace).resource(event).create();
	}

}
