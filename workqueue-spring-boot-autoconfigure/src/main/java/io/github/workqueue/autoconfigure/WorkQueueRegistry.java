package io.github.workqueue.autoconfigure;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;

import io.github.workqueue.autoconfigure.internal.QueueSettings;
import io.github.workqueue.autoconfigure.internal.UndeclaredQueueWarning;
import io.github.workqueue.autoconfigure.internal.WorkQueueFactory;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.spring.QueueResolver;
import io.github.workqueue.spring.WorkerSettings;

/**
 * All the application's queues by name: the queue beans (declared under
 * {@code workqueue.queues} or defined by the application) and the queues made from the
 * defaults for {@code @QueueWorker}s whose queue is not declared.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe.
 */
public class WorkQueueRegistry implements QueueResolver, DisposableBean {

	private final ListableBeanFactory beanFactory;

	private final WorkQueueFactory factory;

	private final Map<String, RateLimitingQueue<Object>> undeclared = new ConcurrentHashMap<>();

	public WorkQueueRegistry(ListableBeanFactory beanFactory, WorkQueueFactory factory) {
		this.beanFactory = beanFactory;
		this.factory = factory;
	}

	/**
	 * Returns every queue, by name, sorted.
	 * @return the queues
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public Map<String, RateLimitingQueue<?>> getQueues() {
		Map<String, RateLimitingQueue<?>> all = new TreeMap<>(this.undeclared);
		Map beans = this.beanFactory.getBeansOfType(RateLimitingQueue.class);
		all.putAll(beans);
		return all;
	}

	/**
	 * Returns the queue of that name.
	 * @param name the queue name
	 * @return the queue, or null if there is none
	 */
	public @Nullable RateLimitingQueue<?> getQueue(String name) {
		RateLimitingQueue<Object> bean = queueBean(name);
		return (bean != null) ? bean : this.undeclared.get(name);
	}

	/**
	 * Returns the queue of that name, making one from the defaults if there is none.
	 * @param name the queue name
	 * @return the queue
	 */
	public RateLimitingQueue<Object> getOrCreateQueue(String name) {
		RateLimitingQueue<Object> bean = queueBean(name);
		return (bean != null) ? bean : this.undeclared.computeIfAbsent(name, this.factory::create);
	}

	/**
	 * The queue of a {@code @QueueWorker}: {@link #getOrCreateQueue(String)}.
	 */
	@Override
	public RateLimitingQueue<Object> queue(String queueName) {
		if (queueBean(queueName) == null) {
			UndeclaredQueueWarning.warnIfUndeclared(queueName, this.factory.declaredQueueNames());
		}
		return getOrCreateQueue(queueName);
	}

	/**
	 * The queue's {@code workers}, {@code max-retries} and {@code not-retryable}, from
	 * its properties or the defaults.
	 */
	@Override
	public WorkerSettings settings(String queueName) {
		QueueSettings settings = this.factory.settings(queueName);
		return new WorkerSettings(settings.workers(), settings.maxRetries(), settings.notRetryable());
	}

	@SuppressWarnings("unchecked")
	private @Nullable RateLimitingQueue<Object> queueBean(String name) {
		if (this.beanFactory.containsBean(name) && this.beanFactory.isTypeMatch(name, RateLimitingQueue.class)) {
			return this.beanFactory.getBean(name, RateLimitingQueue.class);
		}
		return null;
	}

	@Override
	public void destroy() {
		this.undeclared.values().forEach(RateLimitingQueue::shutDown);
	}

}
