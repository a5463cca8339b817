package io.github.workqueue.redis.failover;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.github.workqueue.core.internal.Nanos;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link Traffic}'s records say about the queue's guarantees through faults, for
 * traffic whose producers add each item once (every item a new one): each acknowledged
 * add, each accepted done and each lease a worker got, checked against each other.
 *
 * <ul>
 * <li>{@link #lostAdds()}: items whose add returned but that no worker ever got (an item
 * whose done failed was not lost: its add took effect);
 * <li>{@link #lostDones()}: items handed out again after a done of theirs returned
 * {@code ACCEPTED} (Redis forgot the done);
 * <li>{@link #twiceAccepted()}: items with more than one accepted done (two holders both
 * told their lease was live, or a lost done);
 * <li>{@link #tokenRepeats()}: items whose leases' fencing tokens did not strictly rise
 * in the order the leases were handed out.
 * </ul>
 *
 * @param acknowledgedAdds adds that returned
 * @param acceptedDones dones that returned {@code ACCEPTED}
 * @param lostAdds as above
 * @param lostDones as above
 * @param twiceAccepted as above
 * @param tokenRepeats as above
 * @param histories what happened to each item above, instance by instance, in time order
 * (the first few items of each list), so that a failure says how it came about
 */
public record Ledger(int acknowledgedAdds, int acceptedDones, List<String> lostAdds, List<String> lostDones,
		List<String> twiceAccepted, List<String> tokenRepeats, Map<String, String> histories) {

	/** How many items of each list have their history told. */
	private static final int HISTORIES_TOLD = 5;

	/** Reads the records of every instance of the traffic. */
	public static Ledger of(Traffic traffic) {
		Set<String> added = new HashSet<>();
		Map<String, List<Traffic.Done>> dones = new HashMap<>();
		List<Traffic.Grant> grants = new ArrayList<>();
		for (Traffic.Instance instance : traffic.instances()) {
			instance.adds().forEach((add) -> added.add(add.item()));
			instance.dones()
				.forEach((done) -> dones.computeIfAbsent(done.item(), (item) -> new ArrayList<>()).add(done));
			grants.addAll(instance.grants());
		}
		Set<String> delivered = new HashSet<>();
		grants.forEach((grant) -> delivered.add(grant.item()));
		List<String> lostAdds = added.stream().filter((item) -> !delivered.contains(item)).sorted().toList();
		List<String> twiceAccepted = dones.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().size() > 1)
			.map(Map.Entry::getKey)
			.sorted()
			.toList();
		Map<String, Long> firstDone = new HashMap<>();
		dones.forEach(
				(item, list) -> firstDone.put(item, list.stream().mapToLong(Traffic.Done::nanos).min().orElseThrow()));
		List<String> lostDones = grants.stream()
			.filter((grant) -> firstDone.containsKey(grant.item()) && grant.nanos() - firstDone.get(grant.item()) > 0)
			.map(Traffic.Grant::item)
			.distinct()
			.sorted()
			.toList();
		Map<String, List<Traffic.Grant>> byItem = new HashMap<>();
		grants.forEach((grant) -> byItem.computeIfAbsent(grant.item(), (item) -> new ArrayList<>()).add(grant));
		List<String> tokenRepeats = new ArrayList<>();
		byItem.forEach((item, list) -> {
			list.sort(Comparator.comparingLong(Traffic.Grant::nanos));
			for (int i = 1; i < list.size(); i++) {
				if (list.get(i).token() <= list.get(i - 1).token()) {
					tokenRepeats.add(item);
					return;
				}
			}
		});
		int accepted = dones.values().stream().mapToInt(List::size).sum();
		Set<String> told = new HashSet<>();
		for (List<String> broken : List.of(lostAdds, lostDones, twiceAccepted, tokenRepeats)) {
			told.addAll(broken.subList(0, Math.min(HISTORIES_TOLD, broken.size())));
		}
		return new Ledger(added.size(), accepted, lostAdds, lostDones, twiceAccepted, tokenRepeats,
				histories(traffic, told));
	}

	/**
	 * Each item's events on every instance, in time order: milliseconds since the item's
	 * first event, the instance, what happened and the lease's token.
	 */
	private static Map<String, String> histories(Traffic traffic, Set<String> items) {
		Map<String, Long> first = new HashMap<>();
		List<Object[]> events = new ArrayList<>();
		for (Traffic.Instance instance : traffic.instances()) {
			for (Traffic.Event event : instance.events()) {
				if (items.contains(event.item())) {
					events.add(new Object[] { event, instance.index() });
					first.merge(event.item(), event.nanos(), Nanos::earlier);
				}
			}
		}
		events.sort(Comparator.comparingLong((entry) -> ((Traffic.Event) entry[0]).nanos()));
		Map<String, String> histories = new TreeMap<>();
		for (Object[] entry : events) {
			Traffic.Event event = (Traffic.Event) entry[0];
			double millis = (event.nanos() - first.get(event.item())) / 1e6;
			String line = String.format("%n    +%.1f ms app-%d %s (token %d)", millis, (int) entry[1], event.what(),
					event.token());
			histories.merge(event.item(), line, String::concat);
		}
		return histories;
	}

	private String told(List<String> items) {
		StringBuilder told = new StringBuilder();
		for (String item : items) {
			String history = this.histories.get(item);
			if (history != null) {
				told.append(System.lineSeparator()).append("  ").append(item).append(':').append(history);
			}
		}
		return told.toString();
	}

	/** Asserts that no item's fencing tokens repeated or fell. */
	public void assertTokensNeverRepeated() {
		assertThat(this.tokenRepeats).as(() -> "items whose fencing tokens repeated" + told(this.tokenRepeats))
			.isEmpty();
	}

	/**
	 * Asserts that no acknowledged add and no accepted done was lost, and no item was
	 * accepted twice.
	 */
	public void assertNothingAcknowledgedLost() {
		assertThat(this.lostAdds).as(() -> "acknowledged adds lost" + told(this.lostAdds)).isEmpty();
		assertThat(this.lostDones).as(() -> "accepted dones lost" + told(this.lostDones)).isEmpty();
		assertThat(this.twiceAccepted).as(() -> "items accepted twice" + told(this.twiceAccepted)).isEmpty();
	}

	/** Whether every added item was delivered to some worker. */
	public boolean allFinished() {
		return this.lostAdds.isEmpty();
	}

	@Override
	public String toString() {
		return this.acknowledgedAdds + " acknowledged adds, " + this.acceptedDones + " accepted dones; lost adds "
				+ this.lostAdds.size() + ", lost dones " + this.lostDones.size() + ", accepted twice "
				+ this.twiceAccepted.size() + ", token repeats " + this.tokenRepeats.size();
	}

}
