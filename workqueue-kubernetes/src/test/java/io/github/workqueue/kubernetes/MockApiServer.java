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
 * class's own {@code @BeforeAll} methods; with a {@link WatchCloseUnblocker} beside it
 * from before the server starts until after it stopped, since a watch that closes while
 * an event is sent to it blocks the server's event loop for 30 s (see there). Its own
 * shutdown timing out is reported instead of failing the class: that deadlock, before the
 * unblocker, once held the event loop past the shutdown's timeout after every test of the
 * class passed ({@code LeadershipFaultTest} in a full build beside two other builds,
 * "Unable to close MockWebServer").
 */
final class MockApiServer implements BeforeAllCallback, AfterAllCallback {

	private KubernetesMockServer server;

	private KubernetesClient client;

	private WatchCloseUnblocker unblocker;

	@Override
	public void beforeAll(ExtensionContext context) throws IllegalAccessException {
		this.unblocker = new WatchCloseUnblocker().start();
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
		finally {
			this.unblocker.close();
		}
	}

}
