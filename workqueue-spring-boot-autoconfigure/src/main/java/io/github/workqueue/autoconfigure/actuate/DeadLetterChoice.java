package io.github.workqueue.autoconfigure.actuate;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import io.github.workqueue.core.DeadLetter;
import io.github.workqueue.core.DeadLetters;

/**
 * What an operator chose for a bulk action on dead letters (item {@code "*"}): those
 * matching a search, as many as they saw, the newest of them the one they saw (given up
 * when they saw it given up, when that is sent). The action acts on exactly that set or
 * on none: a dead letter that arrived since, even one that took another's place and left
 * the count as it was, makes it refuse.
 *
 * <p>
 * <b>Concurrency.</b> Immutable.
 *
 * @param search the text the dead letters' items contain (ignoring case), or empty for
 * all
 * @param count how many the operator saw match (required)
 * @param newest the item of the newest of them (required unless the count is 0)
 * @param newestAt when the newest was given up, in milliseconds since the epoch, if sent
 */
record DeadLetterChoice(@Nullable String search, @Nullable Integer count, @Nullable String newest,
		@Nullable Long newestAt) {

	/**
	 * The dead letters whose item contains the search, ignoring case; all without one.
	 * @param letters the dead letters, newest first
	 * @param search the text, or {@code null} or blank for all
	 * @return those that match, in the same order
	 */
	static List<DeadLetter> matching(List<DeadLetter> letters, @Nullable String search) {
		if (search == null || search.isBlank()) {
			return letters;
		}
		String wanted = search.strip().toLowerCase(Locale.ROOT);
		return letters.stream().filter((letter) -> letter.item().toLowerCase(Locale.ROOT).contains(wanted)).toList();
	}

	/**
	 * The items the action acts on: every dead letter that matches the search, if they
	 * are still the set the operator saw.
	 * @param queueName the queue, for the refusal
	 * @param letters the queue's dead letters
	 * @return the items
	 * @throws InvalidEndpointRequestException if the count or the newest is missing, or
	 * the dead letters changed since
	 */
	List<String> chosen(String queueName, DeadLetters<?> letters) {
		if (this.count == null || (this.newest == null && this.count > 0)) {
			throw new InvalidEndpointRequestException("Missing \"" + ((this.count == null) ? "count" : "newest")
					+ "\": a bulk action (item \"*\") acts on the dead letters that match \"search\" (all when "
					+ "it is empty) only if they are as many as \"count\", the number you confirmed, and the newest "
					+ "of them is \"newest\", the item you saw first in the list (with \"newestAt\", its atMillis)",
					"Missing count or newest");
		}
		List<DeadLetter> matching = matching(letters.deadLetters(), this.search);
		DeadLetter first = matching.isEmpty() ? null : matching.get(0);
		String newestNow = (first != null) ? first.item() : null;
		boolean sameNewest = Objects.equals(this.newest, newestNow) && (this.newestAt == null || first == null
				|| first.at() == null || this.newestAt == first.at().toEpochMilli());
		if (matching.size() != this.count || !sameNewest) {
			throw new InvalidEndpointRequestException(
					"Nothing was changed: you confirmed " + this.count + " dead letter(s) of queue '" + queueName + "' "
							+ filter() + ((this.newest != null) ? ", the newest " + this.newest : "") + "; "
							+ matching.size() + " match now" + ((newestNow != null) ? ", the newest " + newestNow : "")
							+ ". Look at the list again.",
					"Dead letters changed");
		}
		return matching.stream().map(DeadLetter::item).toList();
	}

	private String filter() {
		return (this.search == null || this.search.isBlank()) ? "(all of them)"
				: "matching '" + this.search.strip() + "'";
	}

}
