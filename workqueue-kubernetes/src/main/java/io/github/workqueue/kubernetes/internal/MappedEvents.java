package io.github.workqueue.kubernetes.internal;

import java.util.Collection;
import java.util.function.Consumer;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

import io.github.workqueue.kubernetes.ObjectKey;

/**
 * The handler of an owned or otherwise watched resource: every change (create, update:
 * both states, delete) adds the keys its object maps to.
 *
 * <p>
 * <b>Concurrency.</b> Called on its informer's thread, one event at a time; the mapping
 * and the add must be thread-safe.
 *
 * @param <O> the resource's type
 */
final class MappedEvents<O extends HasMetadata> implements ResourceEventHandler<O> {

	private final Function<? super O, Collection<ObjectKey>> keys;

	private final Consumer<ObjectKey> add;

	/**
	 * @param keys the keys an object maps to
	 * @param add adds a key to the queue
	 */
	MappedEvents(Function<? super O, Collection<ObjectKey>> keys, Consumer<ObjectKey> add) {
		this.keys = keys;
		this.add = add;
	}

	@Override
	public void onAdd(O object) {
		add(object);
	}

	@Override
	public void onUpdate(O before, O after) {
		add(before);
		add(after);
	}

	@Override
	public void onDelete(O object, boolean finalStateUnknown) {
		add(object);
	}

	private void add(O object) {
		for (ObjectKey key : this.keys.apply(object)) {
			this.add.accept(key);
		}
	}

}
