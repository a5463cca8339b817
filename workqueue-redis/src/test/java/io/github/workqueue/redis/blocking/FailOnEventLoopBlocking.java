package io.github.workqueue.redis.blocking;

import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test during which a thread that must not block did (see
 * {@link EventLoopBlockingCalls}): such a call is thrown on a Lettuce thread, where
 * nobody would see it. Registered for every test of the Redis suites by JUnit's extension
 * auto-detection, which the module's Surefire configuration turns on.
 */
public final class FailOnEventLoopBlocking implements BeforeEachCallback, AfterEachCallback {

	@Override
	public void beforeEach(ExtensionContext context) {
		EventLoopBlockingCalls.take();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		List<String> calls = EventLoopBlockingCalls.take();
		if (!calls.isEmpty()) {
			throw new AssertionError(
					calls.size() + " blocking calls on threads that must not block:\n" + String.join("\n", calls));
		}
	}

}
