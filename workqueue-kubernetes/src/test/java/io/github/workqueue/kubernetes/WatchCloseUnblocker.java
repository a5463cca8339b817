package io.github.workqueue.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Breaks a deadlock of fabric8's mock API server (8.0.0) that stops it answering anything
 * for 30 s at a time. Each watch has a listener with an executor of its own that sends
 * the watch's events and waits, for up to 30 s, until the Vert.x event loop has written
 * each one ({@code VertxMockWebSocket.awaitWrite}). When a watch closes, the event loop
 * itself runs the listener's {@code onClosed} (or {@code onFailure}), which waits for
 * that executor to end. If an event was being sent when the close came, each waits for
 * the other: the write cannot run on the blocked loop, so the loop stays blocked until
 * the send gives up 30 s later, and every request to the server (a Lease renewal, a list)
 * waits with it. A watch closes while events flow whenever a replica shuts down or a
 * fault proxy cuts its connections, so the tests that run replicas against a stream of
 * changes can hit it. Reproduced by closing watches while ConfigMaps change every 5 ms: a
 * GET waited past the client's 10 s, with the event loop in
 * {@code WatchEventsListener.onClosed} and a listener's thread in {@code awaitWrite}. A
 * CI failure (a replica that could not reach the Lease for 30 s after the API server came
 * back) left no thread dump; this is the one mechanism found that would explain it.
 * <p>
 * While an event loop is in such a close, this interrupts every thread that waits in
 * {@code awaitWrite}. That loses nothing: the write it waits for is already queued on the
 * event loop, which performs it, in order, once the close returns; the interrupted send
 * only stops waiting for it (and the executor clears the interrupt before its next task).
 * It looks every 100 ms, so such a stall now lasts about that long.
 *
 * <p>
 * <b>Concurrency.</b> One daemon thread per instance, from {@link #start()} to
 * {@link #close()}; the count of interrupted sends is that thread's alone.
 */
final class WatchCloseUnblocker implements AutoCloseable {

	private static final long PERIOD_MILLIS = 100;

	/** Written and read by {@link #thread} only. */
	private long interrupted;

	private final Thread thread = new Thread(this::run, "mock-api-server-unblocker");

	WatchCloseUnblocker start() {
		this.thread.setDaemon(true);
		this.thread.start();
		return this;
	}

	@Override
	public void close() {
		this.thread.interrupt();
	}

	private void run() {
		try {
			while (!Thread.currentThread().isInterrupted()) {
				Thread.sleep(PERIOD_MILLIS);
				unblock(Thread.getAllStackTraces());
			}
		}
		catch (InterruptedException ex) {
			// Closed.
		}
	}

	private void unblock(Map<Thread, StackTraceElement[]> stacks) {
		boolean closing = false;
		List<Thread> sending = new ArrayList<>();
		for (Map.Entry<Thread, StackTraceElement[]> thread : stacks.entrySet()) {
			for (StackTraceElement frame : thread.getValue()) {
				if (frame.getClassName().endsWith(".WatchEventsListener")
						&& (frame.getMethodName().equals("onClosed") || frame.getMethodName().equals("onFailure"))) {
					closing = true;
				}
				if (frame.getClassName().endsWith(".VertxMockWebSocket")
						&& frame.getMethodName().equals("awaitWrite")) {
					sending.add(thread.getKey());
				}
			}
		}
		if (closing && !sending.isEmpty()) {
			sending.forEach(Thread::interrupt);
			this.interrupted += sending.size();
			System.out.println("Mock API server: a watch's close waited for a send on its own event loop; "
					+ "interrupted " + sending.size() + " waiting send(s) (" + this.interrupted + " so far)");
		}
	}

}
