package io.github.workqueue.spring.internal;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.VirtualThreadTaskExecutor;

import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.ItemProcessingListener;
import io.github.workqueue.spring.QueueResolver;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorkerOptions;
import io.github.workqueue.spring.QueueWorkerRegistry;
import io.github.workqueue.spring.WorkerSettings;
import io.github.workqueue.core.Clock;

/**
 * Owns the containers of the {@code @QueueWorker} methods and their lifecycle.
 *
 * <p>
 * <b>Shutdown order.</b> The phase is {@link #PHASE}, below the web server's graceful
 * shutdown ({@code DEFAULT_PHASE - 1024}) and its stop ({@code DEFAULT_PHASE - 2048}).
 * Lifecycles stop from the highest phase down, so the web server has stopped taking
 * requests, and has finished those in progress, before any queue shuts down: every item a
 * request added is in a queue by then, and is either processed during the drain or
 * counted as unfinished. Conversely, workers start before the web server.
 *
 * <p>
 * <b>Concurrency.</b> Registration happens on the thread that refreshes the context;
 * lifecycle state changes under this object's monitor; the wait for the workers at stop
 * runs outside it (on the caller's thread, or on a thread of its own with a callback);
 * lookups are safe from any thread.
 */
public class DefaultQueueWorkerRegistry implements QueueWorkerRegistry, SmartLifecycle {

	/** The lifecycle phase: after the web server stops, before it starts. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Log logger = LogFactory.getLog(QueueWorkerRegistry.class);

	private final QueueResolver queues;

	private final Clock clock;

	private final ApplicationEventPublisher events;

	private final QueueWorkerOptions options;

	private final WorkObserver observer;

	private final Map<String, QueueWorkerEndpoint> endpoints = new TreeMap<>();

	private final ItemListeners listeners;

	/** The queues whose containers start held, with the reasons; guarded by this. */
	private final Map<String, Set<String>> startHeld = new HashMap<>();

	/** Sorted by queue name; replaced whole, never changed. */
	private volatile Map<String, DefaultQueueWorkerContainer> containers = Map.of();

	private boolean running;

	/** Stopped once: containers cannot start again, their queues are shut down. */
	private boolean stopped;

	/** While workers run and options ask for it: the thread that keeps the JVM alive. */
	private @Nullable Thread keepAlive;

	public DefaultQueueWorkerRegistry(QueueResolver queues, Clock clock, ApplicationEventPublisher events,
			QueueWorkerOptions options, @Nullable WorkObserver observer, List<ItemProcessingListener> listeners) {
		this.listeners = new ItemListeners(listeners);
		this.queues = queues;
		this.clock = clock;
		this.events = events;
		this.options = options;
		this.observer = (observer != null) ? observer : WorkObserver.NONE;
	}

	synchronized void register(QueueWorkerEndpoint endpoint) {
		QueueWorkerEndpoint existing = this.endpoints.get(endpoint.queueName());
		if (existing != null) {
			throw InvalidWorkQueueConfigurationException.forMethod(endpoint.method().toString(),
					"queue '" + endpoint.queueName() + "' already has a worker, " + existing.method(),
					"Give each queue one @QueueWorker method; to process in parallel, raise its workers.");
		}
		this.endpoints.put(endpoint.queueName(), endpoint);
	}

	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		if (this.stopped) {
			throw new IllegalStateException("The queue workers cannot be restarted after they were stopped: "
					+ "stopping shut their queues down. Create a new application context instead.");
		}
		Map<String, DefaultQueueWorkerContainer> created = new TreeMap<>(this.containers);
		for (QueueWorkerEndpoint endpoint : this.endpoints.values()) {
			created.computeIfAbsent(endpoint.queueName(), (name) -> createContainer(endpoint));
		}
		this.startHeld.forEach((queueName, reasons) -> {
			DefaultQueueWorkerContainer container = created.get(queueName);
			if (container != null) {
				reasons.forEach(container::hold);
			}
		});
		this.containers = Collections.unmodifiableMap(created);
		this.containers.values().forEach(DefaultQueueWorkerContainer::start);
		this.running = true;
		if (this.options.keepAlive() && !this.containers.isEmpty()) {
			startKeepAlive();
		}
	}

	/**
	 * Worker threads are daemons (virtual threads always are), so that a context that is
	 * never closed cannot hang a JVM's exit; one non-daemon thread keeps the JVM alive
	 * while they run instead, as Spring Boot's {@code spring.main.keep-alive} does.
	 */
	private void startKeepAlive() {
		Thread thread = new Thread(() -> {
			while (!Thread.currentThread().isInterrupted()) {
				LockSupport.park(this);
			}
		}, "workqueue-keep-alive");
		thread.setDaemon(false);
		thread.start();
		this.keepAlive = thread;
	}

	private DefaultQueueWorkerContainer createContainer(QueueWorkerEndpoint endpoint) {
		String name = endpoint.queueName();
		WorkerSettings settings = this.queues.settings(name);
		int workers = (endpoint.workers() != null) ? endpoint.workers() : settings.workers();
		LinkedHashSet<Class<? extends Throwable>> notRetryable = new LinkedHashSet<>(settings.notRetryable());
		notRetryable.addAll(endpoint.notRetryable());
		return new DefaultQueueWorkerContainer(this.queues.queue(name), endpoint.method(),
				new WorkerPolicy(settings.maxRetries(), List.copyOf(notRetryable)), workers, this.clock,
				threadFactory(name), this.events, this.observer, this.listeners);
	}

	private ThreadFactory threadFactory(String queueName) {
		String prefix = queueName + "-worker-";
		AtomicInteger count = new AtomicInteger();
		if (this.options.virtualThreads()) {
			// Named here rather than by the executor, which counts from 0: one scheme,
			// <queue>-worker-1..N, on both kinds of threads.
			ThreadFactory virtual = new VirtualThreadTaskExecutor(prefix).getVirtualThreadFactory();
			return (runnable) -> {
				Thread thread = virtual.newThread(runnable);
				thread.setName(prefix + count.incrementAndGet());
				return thread;
			};
		}
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * Shuts every queue down at once, then waits for all of them within one
	 * {@link QueueWorkerOptions#shutdownTimeout()}.
	 */
	@Override
	public void stop() {
		List<DefaultQueueWorkerContainer> all = initiateStop();
		if (all != null) {
			awaitStopped(all, System.nanoTime() + this.options.shutdownTimeout().toNanos());
		}
	}

	/**
	 * Shuts every queue down at once, and waits for them on a thread of its own, telling
	 * the lifecycle processor when they are done: Spring waits for that at most
	 * {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default) before it
	 * goes on closing the context, so the drain ends at the earlier of that and
	 * {@link QueueWorkerOptions#shutdownTimeout()}. Keys still running when the context
	 * goes on are reported by their queues' shutdown as unfinished.
	 */
	@Override
	public void stop(Runnable callback) {
		List<DefaultQueueWorkerContainer> all = initiateStop();
		if (all == null) {
			callback.run();
			return;
		}
		long deadline = System.nanoTime() + this.options.shutdownTimeout().toNanos();
		Thread waiter = new Thread(() -> {
			try {
				awaitStopped(all, deadline);
			}
			finally {
				callback.run();
			}
		}, "workqueue-shutdown");
		waiter.setDaemon(true);
		waiter.start();
	}

	/**
	 * Stops taking keys on every queue, once.
	 * @return the containers to wait for, or {@code null} if not running
	 */
	private synchronized @Nullable List<DefaultQueueWorkerContainer> initiateStop() {
		if (!this.running) {
			return null;
		}
		this.running = false;
		this.stopped = true;
		if (this.keepAlive != null) {
			this.keepAlive.interrupt();
			this.keepAlive = null;
		}
		List<DefaultQueueWorkerContainer> all = List.copyOf(this.containers.values());
		all.forEach(DefaultQueueWorkerContainer::initiateShutdown);
		return all;
	}

	private static void awaitStopped(List<DefaultQueueWorkerContainer> all, long deadline) {
		try {
			for (DefaultQueueWorkerContainer container : all) {
				container.awaitShutdown(deadline);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			logger.warn("Interrupted while waiting for the queue workers to finish");
		}
	}

	@Override
	public synchronized void startHeld(String queueName, String reason) {
		if (this.running || this.stopped) {
			throw new IllegalStateException(
					"The container of queue '" + queueName + "' cannot start held: the containers were started");
		}
		this.startHeld.computeIfAbsent(queueName, (name) -> new LinkedHashSet<>()).add(reason);
	}

	@Override
	public synchronized boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	@Override
	public Collection<QueueWorkerContainer> getContainers() {
		return List.copyOf(this.containers.values());
	}

	@Override
	public @Nullable QueueWorkerContainer getContainer(String queueName) {
		return this.containers.get(queueName);
	}

}
