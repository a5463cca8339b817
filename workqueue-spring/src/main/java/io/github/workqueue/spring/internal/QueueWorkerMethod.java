package io.github.workqueue.spring.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.WorkContext;
import io.github.workqueue.spring.WorkResult;

/**
 * A validated {@code @QueueWorker} method and the bean to call it on.
 *
 * <p>
 * <b>Concurrency.</b> Immutable; thread-safe if the bean's method is.
 */
final class QueueWorkerMethod {

	private static final String ACCEPTED = "a @QueueWorker method takes the item, and optionally a "
			+ WorkContext.class.getSimpleName() + " second, and returns void or " + WorkResult.class.getSimpleName();

	private final Object bean;

	private final Method method;

	private final Class<?> itemType;

	private final String description;

	private final boolean takesContext;

	private QueueWorkerMethod(Object bean, Method method, Class<?> itemType, String description) {
		this.bean = bean;
		this.method = method;
		this.itemType = itemType;
		this.description = description;
		this.takesContext = method.getParameterCount() == 2;
	}

	/**
	 * Checks the method's signature.
	 * @param bean the bean (possibly a proxy)
	 * @param method the invocable method
	 * @param userClass the bean's class, for messages
	 * @return the worker method
	 * @throws InvalidWorkQueueConfigurationException if the method cannot be a worker
	 */
	static QueueWorkerMethod of(Object bean, Method method, Class<?> userClass) {
		String description = describe(userClass, method);
		int count = method.getParameterCount();
		if (count < 1 || count > 2) {
			throw InvalidWorkQueueConfigurationException.forMethod(description, "it has " + count + " parameters",
					"Change it so that " + ACCEPTED + ", for example 'void handle(String key)' or "
							+ "'void handle(String key, WorkContext context)'.");
		}
		if (count == 2 && method.getParameterTypes()[1] != WorkContext.class) {
			throw InvalidWorkQueueConfigurationException.forMethod(description,
					"its second parameter is a " + method.getParameterTypes()[1].getName() + ", not a "
							+ WorkContext.class.getName(),
					"Change it so that " + ACCEPTED + ", for example 'void handle(String key, WorkContext context)'.");
		}
		Class<?> returnType = method.getReturnType();
		if (returnType != void.class && returnType != Void.class && returnType != WorkResult.class) {
			throw InvalidWorkQueueConfigurationException.forMethod(description, "it returns " + returnType.getName(),
					"Change it so that " + ACCEPTED + ".");
		}
		ReflectionUtils.makeAccessible(method);
		return new QueueWorkerMethod(bean, method,
				ClassUtils.resolvePrimitiveIfNecessary(method.getParameterTypes()[0]), description);
	}

	private static String describe(Class<?> userClass, Method method) {
		String parameters = Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		return userClass.getName() + "." + method.getName() + "(" + parameters + ")";
	}

	/**
	 * Tells whether the item can be passed to the method.
	 * @param item the item
	 * @return true if the parameter type accepts it
	 */
	boolean accepts(Object item) {
		return this.itemType.isInstance(item);
	}

	Class<?> itemType() {
		return this.itemType;
	}

	/**
	 * Calls the method.
	 * @param item the item, accepted by {@link #accepts(Object)}
	 * @param context makes the call's context, asked only when the method takes one
	 * @return what the method asked for
	 * @throws Throwable what the method threw
	 */
	WorkResult invoke(Object item, Supplier<WorkContext> context) throws Throwable {
		try {
			Object result = this.takesContext ? this.method.invoke(this.bean, item, context.get())
					: this.method.invoke(this.bean, item);
			return (result instanceof WorkResult workResult) ? workResult : WorkResult.done();
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	@Override
	public String toString() {
		return this.description;
	}

}
