package io.github.workqueue.redis.internal.batch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive prefetch's rules, window by window, with round trips and gaps given.
 */
class LeaseAheadSizingTest {

	private static final long ROUND_TRIP = 200_000;

	@Test
	void workersQuickerThanARoundTripDoubleTheSizeUpToTheBound() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(8, true);
		sizing.roundTrip(ROUND_TRIP);
		int[] sizes = new int[6];
		for (int window = 0; window < sizes.length; window++) {
			missingWindow(sizing);
			sizes[window] = sizing.size();
		}
		assertThat(sizes).containsExactly(1, 2, 4, 8, 8, 8);
	}

	@Test
	void aBoundOfZeroKeepsNothingAhead() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(0, true);
		sizing.roundTrip(ROUND_TRIP);
		for (int window = 0; window < 4; window++) {
			missingWindow(sizing);
		}
		assertThat(sizing.size()).isZero();
	}

	@Test
	void workersSlowerThanTwoRoundTripsNeverMiss() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		sizing.roundTrip(ROUND_TRIP);
		for (int take = 0; take < 10 * LeaseAheadSizing.WINDOW; take++) {
			sizing.tookNothing(2 * ROUND_TRIP);
			sizing.tookNothing(-1);
		}
		assertThat(sizing.size()).isZero();
	}

	@Test
	void beforeAnyRoundTripWasMeasuredNoTakeMisses() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		missingWindow(sizing);
		assertThat(sizing.size()).isZero();
	}

	@Test
	void oneMissInAWindowIsNotEnoughToGrow() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		sizing.roundTrip(ROUND_TRIP);
		sizing.tookNothing(0);
		for (int take = 1; take < LeaseAheadSizing.WINDOW; take++) {
			sizing.tookNothing(10 * ROUND_TRIP);
		}
		assertThat(sizing.size()).isZero();
	}

	@Test
	void leasesThatWaitLongInTheBufferHalveTheSizeDownToZero() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		sizing.roundTrip(ROUND_TRIP);
		for (int window = 0; window < 3; window++) {
			missingWindow(sizing);
		}
		assertThat(sizing.size()).isEqualTo(4);
		long idle = (LeaseAheadSizing.IDLE_ROUND_TRIPS + 1) * ROUND_TRIP;
		int[] sizes = new int[4];
		for (int window = 0; window < sizes.length; window++) {
			for (int take = 0; take < LeaseAheadSizing.WINDOW; take++) {
				sizing.tookBuffered(idle, -1, 0);
			}
			sizes[window] = sizing.size();
		}
		assertThat(sizes).containsExactly(2, 1, 0, 0);
	}

	@Test
	void leasesTakenSoonAfterTheyCameKeepTheSize() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		sizing.roundTrip(ROUND_TRIP);
		missingWindow(sizing);
		missingWindow(sizing);
		for (int take = 0; take < 5 * LeaseAheadSizing.WINDOW; take++) {
			sizing.tookBuffered(ROUND_TRIP, ROUND_TRIP / 10, 2);
		}
		assertThat(sizing.size()).isEqualTo(2);
	}

	@Test
	void anOutagesLongCallDoesNotMoveTheRoundTrip() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		sizing.roundTrip(ROUND_TRIP);
		sizing.roundTrip(5_000_000_000L);
		// A take back after 1.5 round trips still misses: the average stayed.
		for (int take = 0; take < LeaseAheadSizing.WINDOW; take++) {
			sizing.tookNothing(ROUND_TRIP * 3 / 2);
		}
		assertThat(sizing.size()).isEqualTo(1);
	}

	@Test
	void takesThatLeaveTheBufferUnderAQuarterFullCountAsMissesForQuickWorkers() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(64, true);
		sizing.roundTrip(ROUND_TRIP);
		for (int window = 0; window < 4; window++) {
			missingWindow(sizing);
		}
		assertThat(sizing.size()).isEqualTo(8);
		for (int take = 0; take < LeaseAheadSizing.WINDOW; take++) {
			sizing.tookBuffered(ROUND_TRIP, ROUND_TRIP / 10, 1);
		}
		assertThat(sizing.size()).as("one left of eight: the refill came late").isEqualTo(16);
		for (int take = 0; take < LeaseAheadSizing.WINDOW; take++) {
			sizing.tookBuffered(ROUND_TRIP, 3 * ROUND_TRIP, 1);
		}
		assertThat(sizing.size()).as("a slow worker's takes are no misses").isEqualTo(16);
		for (int take = 0; take < LeaseAheadSizing.WINDOW; take++) {
			sizing.tookBuffered(ROUND_TRIP, ROUND_TRIP / 10, 8);
		}
		assertThat(sizing.size()).as("half left: enough").isEqualTo(16);
	}

	@Test
	void aSizingThatIsNotAdaptiveStaysAtTheBound() {
		LeaseAheadSizing sizing = new LeaseAheadSizing(16, false);
		sizing.roundTrip(ROUND_TRIP);
		for (int take = 0; take < 4 * LeaseAheadSizing.WINDOW; take++) {
			sizing.tookBuffered(100 * ROUND_TRIP, -1, 0);
		}
		assertThat(sizing.size()).isEqualTo(16);
	}

	/** A window of takes that find nothing, each by a thread back at once. */
	private static void missingWindow(LeaseAheadSizing sizing) {
		for (int take = 0; take < LeaseAheadSizing.WINDOW; take++) {
			sizing.tookNothing(ROUND_TRIP / 10);
		}
	}

}
