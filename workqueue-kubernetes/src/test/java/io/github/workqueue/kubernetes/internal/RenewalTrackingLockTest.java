package io.github.workqueue.kubernetes.internal;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The lock's judgement of each attempt on a controlled monotonic clock: the Lease reads
 * and writes of a fake lock move the clock as a slow API server (or fabric8's retries)
 * would.
 */
class RenewalTrackingLockTest {

	private static final Duration RENEW_DEADLINE = Duration.ofSeconds(4);

	private final AtomicLong clock = new AtomicLong(1_000_000_000L);

	private final SlowLease lease = new SlowLease();

	private final RenewalTrackingLock lock = new RenewalTrackingLock(this.lease, RENEW_DEADLINE, this.clock::get);

	@Test
	void aWriteAnsweredWithinTheDeadlineCountsFromWhenItsReadBegan() {
		long start = this.clock.get();
		this.lease.readTakes = Duration.ofSeconds(1);
		this.lease.writeTakes = Duration.ofSeconds(2);
		this.lock.get(null);
		this.lock.update(null, record("me"));
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(start);
		assertThat(this.lock.renewedWithinDeadline(this.clock.get())).isTrue();
		assertThat(this.lock.renewedWithinDeadline(start + RENEW_DEADLINE.toNanos())).isFalse();
	}

	/**
	 * fabric8's elector tries again only after a {@link KubernetesClientException}; any
	 * other exception ends its acquire loop, and its run never completes.
	 */
	@Test
	void anyFailureOfTheLeaseCallsShouldReachTheElectorAsAClientException() {
		this.lease.failure = new java.util.concurrent.CancellationException("request cancelled");
		assertThatExceptionOfType(KubernetesClientException.class).isThrownBy(() -> this.lock.get(null))
			.withMessageContaining("Lease ops/test not read")
			.withCause(this.lease.failure);
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.lock.update(null, record("me")))
			.withCause(this.lease.failure);
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.lock.create(null, record("me")))
			.withCause(this.lease.failure);
		KubernetesClientException conflict = new KubernetesClientException("conflict", 409, null);
		this.lease.failure = conflict;
		assertThatExceptionOfType(KubernetesClientException.class).isThrownBy(() -> this.lock.get(null))
			.isSameAs(conflict);
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(RenewalTrackingLock.NEVER);
	}

	@Test
	void aWriteWhoseReadWasHeldPastTheDeadlineShouldNotBeSent() {
		this.lease.readTakes = Duration.ofMillis(6400);
		this.lock.get(null);
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.lock.update(null, record("me")))
			.withMessageContaining("not written")
			.withMessageContaining("past renew-deadline");
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.lock.create(null, record("me")));
		assertThat(this.lease.writes).isEmpty();
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(RenewalTrackingLock.NEVER);
		assertThat(this.lock.renewedWithinDeadline(this.clock.get())).isFalse();
	}

	@Test
	void aWriteAnsweredPastTheDeadlineShouldFailAndRenewNothing() {
		this.lease.readTakes = Duration.ofSeconds(1);
		this.lock.get(null);
		this.lock.update(null, record("me"));
		long renewed = this.lock.lastRenewalNanos();
		this.lease.writeTakes = Duration.ofSeconds(5);
		this.lock.get(null);
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.lock.update(null, record("me")))
			.withMessageContaining("not counted");
		assertThat(this.lease.writes).hasSize(2);
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(renewed);
	}

	@Test
	void aWriteJustUnderTheDeadlineCountsAndOneAtItDoesNot() {
		this.lease.readTakes = Duration.ZERO;
		this.lease.writeTakes = RENEW_DEADLINE.minusNanos(1);
		long start = this.clock.get();
		this.lock.get(null);
		this.lock.update(null, record("me"));
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(start);
		this.lease.writeTakes = RENEW_DEADLINE;
		this.lock.get(null);
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> this.lock.update(null, record("me")));
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(start);
	}

	@Test
	void aRecordNamingAnotherHolderRenewsNothing() {
		this.lock.get(null);
		this.lock.update(null, record("other"));
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(RenewalTrackingLock.NEVER);
	}

	@Test
	void theReleaseIsSentWhateverItsAgeAndRenewsNothing() {
		this.lock.get(null);
		this.lock.update(null, record("me"));
		long renewed = this.lock.lastRenewalNanos();
		this.clock.addAndGet(Duration.ofSeconds(30).toNanos());
		this.lock.releasing();
		this.lock.update(null, record("me"));
		assertThat(this.lease.writes).hasSize(2);
		assertThat(this.lock.lastRenewalNanos()).isEqualTo(renewed);
	}

	private static LeaderElectionRecord record(String holder) {
		ZonedDateTime now = ZonedDateTime.now();
		return new LeaderElectionRecord(holder, Duration.ofSeconds(6), now, now, 0);
	}

	/** A Lease whose reads and writes take the times set, on the test's clock. */
	private final class SlowLease implements Lock {

		Duration readTakes = Duration.ZERO;

		Duration writeTakes = Duration.ZERO;

		final List<LeaderElectionRecord> writes = new ArrayList<>();

		RuntimeException failure;

		@Override
		public LeaderElectionRecord get(KubernetesClient client) {
			RenewalTrackingLockTest.this.clock.addAndGet(this.readTakes.toNanos());
			failIfAsked();
			return null;
		}

		private void failIfAsked() {
			if (this.failure != null) {
				throw this.failure;
			}
		}

		@Override
		public void create(KubernetesClient client, LeaderElectionRecord record) {
			update(client, record);
		}

		@Override
		public void update(KubernetesClient client, LeaderElectionRecord record) {
			RenewalTrackingLockTest.this.clock.addAndGet(this.writeTakes.toNanos());
			failIfAsked();
			this.writes.add(record);
		}

		@Override
		public String identity() {
			return "me";
		}

		@Override
		public String describe() {
			return "Lease ops/test";
		}

	}

}
