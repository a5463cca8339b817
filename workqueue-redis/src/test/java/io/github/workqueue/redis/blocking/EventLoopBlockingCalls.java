package io.github.workqueue.redis.blocking;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * BlockHound's setup for the Redis suites (installed by {@code blockhound-junit-platform}
 * when the test JVM starts): a blocking call that the library makes on a thread that must
 * not block (Netty's event loops, through Netty's own integration, which Lettuce runs on)
 * is recorded here, so that {@link FailOnEventLoopBlocking} fails the test it happened
 * in. The call is let through rather than thrown: thrown on an event loop, it would leave
 * a reply unread and the test waiting for it, rather than failing with the call's stack.
 * Applied after every other integration, so that its callback is the one kept.
 *
 * <p>
 * The allowances: a blocking call with none of the library's frames on its stack is
 * Lettuce's or Netty's own (Lettuce's cluster topology refresh, its reconnect logging and
 * node connection set-up, Netty's buffer pool all take locks on these threads), which the
 * library can neither cause nor mend; and Netty's buffer pool's lock, which any write may
 * take, the library's included (below). Every call made from the library's code, its
 * completion callbacks included, is checked. What BlockHound does not see is a monitor
 * held across I/O; the library holds none (see the note on each class that a Lettuce
 * callback reaches).
 */
public final class EventLoopBlockingCalls implements BlockHoundIntegration {

	private static final String LIBRARY = "io.github.workqueue.";

	private static final String THIS_PACKAGE = EventLoopBlockingCalls.class.getPackageName();

	private static final List<String> calls = new CopyOnWriteArrayList<>();

	@Override
	public void applyTo(BlockHound.Builder builder) {
		// Netty's pooled buffer allocator (4.2) takes a StampedLock for a moment when it
		// grows or frees a magazine, on any write, so also where the library frees a
		// reply's buffer on an event loop: Netty's lock, which Netty's own integration
		// does not list yet.
		builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "free");
		builder.blockingMethodCallback((method) -> {
			BlockingOperationError error = new BlockingOperationError(method);
			if (Arrays.stream(error.getStackTrace()).noneMatch(EventLoopBlockingCalls::isLibrarys)) {
				return;
			}
			StringBuilder where = new StringBuilder(
					"Thread '" + Thread.currentThread().getName() + "' blocked in " + method + " at");
			for (StackTraceElement frame : error.getStackTrace()) {
				where.append("\n\t").append(frame);
			}
			calls.add(where.toString());
		});
	}

	private static boolean isLibrarys(StackTraceElement frame) {
		return frame.getClassName().startsWith(LIBRARY) && !frame.getClassName().startsWith(THIS_PACKAGE);
	}

	@Override
	public int getPriority() {
		return Integer.MAX_VALUE;
	}

	/** Takes the calls recorded since the last take. */
	static List<String> take() {
		List<String> taken = List.copyOf(calls);
		calls.removeAll(taken);
		return taken;
	}

}
