package io.github.workqueue.spring.internal;

import java.lang.reflect.Method;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;

import io.github.workqueue.spring.WorkContext;

/**
 * The reflection a {@code @QueueWorker} method needs in a native image: the method is
 * invoked reflectively, and its item type is bound (an item stored on Redis is read back
 * from JSON into that type, with its constructors, fields and accessors).
 *
 * <p>
 * <b>Concurrency.</b> Stateless apart from Spring's registrar, which is thread-safe.
 */
public final class QueueWorkerReflectiveProcessor extends SimpleReflectiveProcessor {

	private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

	@Override
	protected void registerMethodHint(ReflectionHints hints, Method method) {
		super.registerMethodHint(hints, method);
		for (Class<?> parameter : method.getParameterTypes()) {
			if (parameter != WorkContext.class) {
				this.bindings.registerReflectionHints(hints, parameter);
			}
		}
	}

}
