package io.github.workqueue.core.lincheck;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

import io.github.workqueue.core.metrics.RecordingMetricsProvider;

import static org.jetbrains.kotlinx.lincheck.strategy.managed.ManagedStrategyGuaranteeKt.forClasses;

/**
 * The model-checking budget shared by the Lincheck tests: sized to explore many
 * interleavings of small scenarios within the build's time on two cores.
 */
final class Lincheck {

	/**
	 * Silenced: formatting a log record initializes time zones inside the model checker,
	 * which its instrumentation cannot do. Held here because JUL keeps loggers weakly.
	 */
	private static final Logger QUEUE_LOGGER = Logger.getLogger("io.github.workqueue");

	static {
		QUEUE_LOGGER.setLevel(Level.OFF);
	}

	private Lincheck() {
	}

	static ModelCheckingOptions options() {
		return options(QueueModel.class);
	}

	static ModelCheckingOptions options(Class<?> specification) {
		return new ModelCheckingOptions().iterations(Integer.getInteger("lincheck.iterations", 40))
			.invocationsPerIteration(Integer.getInteger("lincheck.invocations", 100))
			.threads(3)
			.actorsPerThread(3)
			.actorsBefore(2)
			.actorsAfter(2)
			.sequentialSpecification(specification)
			// The JDK's own linearizable collections and the test's recording metrics
			// are taken as atomic steps: the model checker explores the interleavings of
			// the queue's protocol rather than those inside ConcurrentHashMap.
			.addGuarantee(
					forClasses(ConcurrentHashMap.class.getName(), ArrayDeque.class.getName(), HashMap.class.getName(),
							TreeMap.class.getName(), DoubleAdder.class.getName(), AtomicLong.class.getName(),
							CopyOnWriteArrayList.class.getName(), RecordingMetricsProvider.class.getName(),
							"io.github.workqueue.core.ratelimit.FailureCounts")
						.allMethods()
						.treatAsAtomic());
	}

}
