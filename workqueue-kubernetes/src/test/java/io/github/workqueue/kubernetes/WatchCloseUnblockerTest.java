package io.github.workqueue.kubernetes;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mock API server keeps answering while watches close with events in flight (see
 * {@link WatchCloseUnblocker}): a watch is opened and closed 100 times while a ConfigMap
 * changes every 5 ms, and a request is made after each close. With the unblocker not
 * started, two runs of this test in three failed: a request waited past the client's 10 s
 * request timeout.
 */
@ExtendWith(MockApiServer.class)
class WatchCloseUnblockerTest {

	static KubernetesMockServer server;

	static KubernetesClient client;

	@Test
	void watchesClosingWhileEventsAreSentShouldNotStopTheServer() throws InterruptedException {
		long longest = 0;
		ConfigMapChanges changes = ConfigMapChanges.start(client, "unblock", 3, 5);
		try (KubernetesClient watching = server.createClient()) {
			for (int round = 0; round < 100; round++) {
				Watch watch = watching.configMaps().inNamespace("unblock").watch(new Watcher<ConfigMap>() {

					@Override
					public void eventReceived(Action action, ConfigMap resource) {
					}

					@Override
					public void onClose(WatcherException cause) {
					}

				});
				Thread.sleep(ThreadLocalRandom.current().nextInt(20, 100));
				watch.close();
				Thread.sleep(50);
				long start = System.nanoTime();
				client.leases().inNamespace("unblock").withName("any").get();
				longest = Math.max(longest, System.nanoTime() - start);
			}
		}
		finally {
			changes.close();
		}
		System.out.println("The longest request after a watch closed: " + Duration.ofNanos(longest).toMillis() + " ms");
		assertThat(Duration.ofNanos(longest)).as("the longest request after a watch closed")
			.isLessThan(Duration.ofSeconds(5));
	}

}
