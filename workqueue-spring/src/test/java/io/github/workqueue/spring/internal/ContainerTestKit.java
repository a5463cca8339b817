package io.github.workqueue.spring.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

import io.github.workqueue.core.Clock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.WorkContext;

/**
 * Makes queues of either backend and containers on them, without Spring, and stops them
 * after each test.
 */
final class ContainerTestKit {

	/** Fast retries, the same on both backends. */
	private static final Duration BASE_DELAY = Duration.ofMillis(1);

	private final String backend;

	private final List<RateLimitingQueue<Object>> queues = new ArrayList<>();

	private final List<DefaultQueueWorkerContainer> containers = new ArrayList<>();

	/** Every event the containers published. */
	final List<Object> events = new CopyOnWriteArrayList<>();

	/** Called with each event as it is published. */
	volatile Consumer<Object> onEvent = (event) -> {
	};

	/** What the containers started next tell of each processing. */
	ItemListeners listeners = ItemListeners.NONE;

	/** Every worker thread the containers started, replacements included. */
	final List<Thread> threads = new CopyOnWriteArrayList<>();

	ContainerTestKit(String backend) {
		this.backend = backend;
	}

	/** A new queue of the backend under test, not shared with any other test. */
	RateLimitingQueue<Object> queue(String hint) {
		return queue(TestRedis.uniqueName(hint), Duration.ofSeconds(30));
	}

	/** A queue of the given name: on Redis, another instance of a queue of that name. */
	@SuppressWarnings("unchecked")
	RateLimitingQueue<Object> queue(String name, Duration leaseDuration) {
		ExponentialFailureRateLimiter<Object> limiter = new ExponentialFailureRateLimiter<>(BASE_DELAY,
				Duration.ofMillis(10));
		RateLimitingQueue<Object> queue;
		if (isRedis()) {
			RedisQueue<String> redis = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), name)
				.leaseDuration(leaseDuration)
				.rateLimiter(limiter)
				.build(ItemCodec.strings());
			queue = (RateLimitingQueue<Object>) (RateLimitingQueue<?>) redis;
		}
		else {
			queue = WorkQueue.builder().name(name).rateLimiter(limiter).buildRateLimiting();
		}
		this.queues.add(queue);
		return queue;
	}

	boolean isRedis() {
		return this.backend.equals("redis");
	}

	/**
	 * Starts a container whose worker method is {@code handle(String)} of the bean.
	 */
	DefaultQueueWorkerContainer start(RateLimitingQueue<Object> queue, Object bean, int workers,
			@Nullable Integer maxRetries) {
		DefaultQueueWorkerContainer container = new DefaultQueueWorkerContainer(queue, workerMethod(bean),
				new WorkerPolicy(maxRetries, List.of()), workers, Clock.system(), threadFactory(queue.name()),
				this::published, WorkObserver.NONE, this.listeners);
		this.containers.add(container);
		container.start();
		return container;
	}

	private void published(Object event) {
		this.onEvent.accept(event);
		this.events.add(event);
	}

	/** Waits until every worker thread started so far has ended. */
	void awaitWorkersEnded() throws InterruptedException {
		for (Thread thread : this.threads) {
			thread.join(TimeUnit.SECONDS.toMillis(10));
			if (thread.isAlive()) {
				throw new IllegalStateException(thread + " did not end");
			}
		}
	}

	private static QueueWorkerMethod workerMethod(Object bean) {
		Method method = ReflectionUtils.findMethod(bean.getClass(), "handle", String.class);
		if (method == null) {
			method = ReflectionUtils.findMethod(bean.getClass(), "handle", String.class, WorkContext.class);
		}
		if (method == null) {
			throw new IllegalArgumentException(
					bean.getClass() + " has no handle(String) or handle(String, WorkContext)");
		}
		return QueueWorkerMethod.of(bean, method, bean.getClass());
	}

	private ThreadFactory threadFactory(String queueName) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, queueName + "-worker-" + count.incrementAndGet());
			thread.setDaemon(true);
			this.threads.add(thread);
			return thread;
		};
	}

	/** Stops a container as the registry does, with the given shutdown timeout. */
	static void stop(DefaultQueueWorkerContainer container, Duration timeout) throws InterruptedException {
		container.initiateShutdown();
		container.awaitShutdown(System.nanoTime() + timeout.toNanos());
	}

	/** Takes what is left in a queue, without processing it. */
	static List<Object> drain(RateLimitingQueue<Object> queue) throws InterruptedException {
		List<Object> left = new ArrayList<>();
		Optional<Object> next;
		while ((next = queue.get(Duration.ZERO)).isPresent()) {
			left.add(next.get());
			queue.done(next.get());
		}
		return left;
	}

	/**
	 * A queue that passes every call through, and then throws the given error from
	 * {@code done} of the items that match.
	 */
	@SuppressWarnings("unchecked")
	static RateLimitingQueue<Object> failingDone(RateLimitingQueue<Object> queue, Predicate<Object> fails,
			Error error) {
		return (RateLimitingQueue<Object>) Proxy.newProxyInstance(ContainerTestKit.class.getClassLoader(),
				new Class<?>[] { RateLimitingQueue.class }, (proxy, method, args) -> {
					Object result;
					try {
						result = method.invoke(queue, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
					if (method.getName().equals("done") && fails.test(args[0])) {
						throw error;
					}
					return result;
				});
	}

	void close() throws InterruptedException {
		for (DefaultQueueWorkerContainer container : this.containers) {
			if (container.isRunning()) {
				stop(container, Duration.ofSeconds(5));
			}
		}
		this.queues.forEach(WorkQueue::shutDown);
	}

}
