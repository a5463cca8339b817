package io.github.workqueue.benchmarks;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The items a consumer thread of a group benchmark took, reported by JMH as a rate
 * ({@code consumed}) beside the group's own score.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class ConsumedItems {

	public long consumed;

	@Setup(Level.Iteration)
	public void reset() {
		this.consumed = 0;
	}

}
