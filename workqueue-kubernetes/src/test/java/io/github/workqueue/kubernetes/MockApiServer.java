package io.github.workqueue.kubernetes;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * fabric8's mock API server for a test class, as
 * {@code @EnableKubernetesMockClient(crud = true)} makes it (HTTPS, CRUD with
 * expectations) and into the same static fields (one of type
 * {@link KubernetesMockServer}, one of type {@link KubernetesClient}), set before the
 * class's own {@code @BeforeAll} methods; except that its own shutdown timing out is
 * reported instead of failing the class: under a heavy load the mock server's Vert.x
 * event loop can stay blocked past that timeout by its watch listeners closing (fabric8's
 * {@code WatchEventsListener.onClosed} waits for an executor on the event loop), after
 * every test of the class passed. Seen once in a full build beside two other builds
 * ({@code LeadershipFaultTest}, "Unable to close MockWebServer").
 */
final class MockApiServer implements BeforeAllCallback, AfterAllCallback {

	private KubernetesMockServer server;

	private KubernetesClient client;

	@Override
	public void beforeAll(ExtensionContext context) throws IllegalAccessException {
		Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
		this.server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
				new KubernetesMixedDispatcher(responses), true);
		this.server.init();
		this.client = this.server.createClient();
		for (Field field : context.getRequiredTestClass().getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) && field.getType() == KubernetesMockServer.class) {
				field.setAccessible(true);
				field.set(null, this.server);
			}
			else if (Modifier.isStatic(field.getModifiers()) && field.getType() == KubernetesClient.class) {
				field.setAccessible(true);
				field.set(null, this.client);
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.client.close();
		try {
			this.server.destroy();
		}
		catch (IllegalStateException ex) {
			System.err.println("The mock API server did not shut down in time (" + ex.getMessage() + ", "
					+ ex.getCause() + "); its tests had ended");
		}
	}

}
