package io.github.workqueue.kubernetes.internal;

import java.time.Duration;

import io.github.workqueue.kubernetes.WorkQueueKubernetesProperties;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;

/**
 * Refuses, at startup, Kubernetes settings that cannot work: durations that are not
 * positive, and leader-election durations with which a deposed replica could still run
 * keys when another takes over. Each error names the property and the fix.
 *
 * <p>
 * <b>Concurrency.</b> Stateless.
 */
final class KubernetesSettingsCheck {

	private KubernetesSettingsCheck() {
	}

	/**
	 * Checks the module's settings.
	 * @param properties the configuration
	 * @throws InvalidWorkQueueConfigurationException naming the first wrong property
	 */
	static void check(WorkQueueKubernetesProperties properties) {
		positive("workqueue.kubernetes.max-retry-backoff", properties.getMaxRetryBackoff());
		if (properties.getLeaderElection().isEnabled()) {
			validate(properties.getLeaderElection());
		}
	}

	/**
	 * Refuses durations with which a deposed replica could still run keys when another
	 * takes over: the renew deadline (when it notices) plus the clocks' skew must come
	 * before the lease duration (when the Lease may pass).
	 */
	private static void validate(WorkQueueKubernetesProperties.LeaderElection election) {
		String prefix = "workqueue.kubernetes.leader-election.";
		positive(prefix + "lease-duration", election.getLeaseDuration());
		positive(prefix + "renew-deadline", election.getRenewDeadline());
		positive(prefix + "retry-period", election.getRetryPeriod());
		if (election.getMaxClockSkew().isNegative()) {
			throw InvalidWorkQueueConfigurationException.forProperty(prefix + "max-clock-skew",
					election.getMaxClockSkew(), "must not be negative", "Set it to 0 or more, such as 1s.");
		}
		Duration window = election.getLeaseDuration()
			.minus(election.getRenewDeadline())
			.minus(election.getMaxClockSkew());
		if ((window.isNegative() || window.isZero())) {
			throw InvalidWorkQueueConfigurationException.forProperty(prefix + "lease-duration",
					election.getLeaseDuration(),
					"leaves no time for a replica that lost the Lease to end its keys: lease-duration ("
							+ election.getLeaseDuration() + ") must exceed renew-deadline ("
							+ election.getRenewDeadline() + ") plus max-clock-skew (" + election.getMaxClockSkew()
							+ ")",
					"Raise lease-duration or lower renew-deadline; the difference, less max-clock-skew, is how long "
							+ "keys in flight may still run after the last renewal's deadline (15s, 10s, 1s by default)");
		}
		if (election.getRenewDeadline().toMillis() * 5 <= election.getRetryPeriod().toMillis() * 6) {
			throw InvalidWorkQueueConfigurationException.forProperty(prefix + "renew-deadline",
					election.getRenewDeadline(),
					"must exceed 1.2 times retry-period (" + election.getRetryPeriod()
							+ "), as client-go requires: the leader must get more than one try to renew",
					"Lower retry-period or raise renew-deadline.");
		}
	}

	private static void positive(String property, Duration value) {
		if ((value.isNegative() || value.isZero())) {
			throw InvalidWorkQueueConfigurationException.forProperty(property, value, "must be positive",
					"Set a positive duration.");
		}
	}

}
