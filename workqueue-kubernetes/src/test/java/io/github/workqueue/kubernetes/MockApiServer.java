package io.github.workqueue.kubernetes;

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

/**
 * fabric8's mock API server as {@code @EnableKubernetesMockClient(crud = true)} makes it
 * (HTTPS, CRUD with expectations), started and stopped by a test class itself, so that
 * its own shutdown timing out is reported instead of failing the class: under a heavy
 * load the mock server's Vert.x event loop can stay blocked past that timeout by its
 * watch listeners closing (fabric8's {@code WatchEventsListener.onClosed} waits for an
 * executor on the event loop), after every test of the class passed. Seen once in a full
 * build beside two other builds ({@code LeadershipFaultTest}, "Unable to close
 * MockWebServer").
 */
final class MockApiServer {

	final KubernetesMockServer server;

	final KubernetesClient client;

	private MockApiServer(KubernetesMockServer server) {
		this.server = server;
		this.client = server.createClient();
	}

	static MockApiServer start() {
		Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
				new KubernetesMixedDispatcher(responses), true);
		server.init();
		return new MockApiServer(server);
	}

	void stop() {
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
