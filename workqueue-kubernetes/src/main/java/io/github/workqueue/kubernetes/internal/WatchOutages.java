package io.github.workqueue.kubernetes.internal;

import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The list and watch failures of one informer source's informers: each is retried (with
 * fabric8's backoff, bounded by {@code max-retry-backoff}), counted by reason, and
 * remembered as the outage's cause; an outage is logged once when it starts and once when
 * the informers watch again. An outage lasts from the first failure, or from when an
 * informer that had listed was first seen not watching, until every informer of the
 * source watches. The second start matters: fabric8's watch manager opens an ended watch
 * again by itself (a watch ended with an error status, a cut connection, re-watches
 * refused) without telling the informer, whose own state is then the only sign; such an
 * outage is counted once, with the reason {@code not-watching}, once it lasted
 * {@link #NOT_WATCHING_GRACE_NANOS} (a watch renewed on schedule is not an outage).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe. The informers report failures on their threads; the
 * outage's state is guarded by this object's monitor; the counts are adders.
 */
final class WatchOutages implements ExceptionHandler {

	private static final Log logger = LogFactory.getLog(InformerFeed.class);

	/** How long an informer is seen not watching before that is an outage. */
	static final long NOT_WATCHING_GRACE_NANOS = 1_000_000_000L;

	private static final long NOT_SEEN = Long.MIN_VALUE;

	/** The reason counted for an outage seen only in the informers' state. */
	static final String NOT_WATCHING = "not-watching";

	private final String queueName;

	private final String resource;

	private final Map<String, LongAdder> byReason = new ConcurrentHashMap<>();

	/** {@link System#nanoTime()} of the outage's first failure; guarded by this. */
	private long since;

	/** Guarded by this. */
	private boolean inOutage;

	/**
	 * When the informers were first seen not watching, outside an outage, or
	 * {@link #NOT_SEEN}; guarded by this.
	 */
	private long notWatchingSince = NOT_SEEN;

	/** The last failure's reason and message; guarded by this. */
	private @Nullable String cause;

	WatchOutages(String queueName, String resource) {
		this.queueName = queueName;
		this.resource = resource;
	}

	/**
	 * Every failure is retried: an informer that gives up would leave its cache stale.
	 */
	@Override
	public boolean retryAfterException(boolean isStarted, Throwable failure) {
		String reason = reason(failure);
		this.byReason.computeIfAbsent(reason, (r) -> new LongAdder()).increment();
		String described = reason + ": " + describe(failure);
		boolean first;
		synchronized (this) {
			first = !this.inOutage;
			if (first) {
				this.inOutage = true;
				this.since = (this.notWatchingSince != NOT_SEEN) ? this.notWatchingSince : System.nanoTime();
				this.notWatchingSince = NOT_SEEN;
			}
			this.cause = described;
		}
		if (first) {
			logger.warn("Informer of queue '" + this.queueName + "' (" + this.resource + ") cannot "
					+ (isStarted ? "watch" : "list") + " (" + described + "); retrying with backoff until it can. "
					+ "Further failures of this outage are counted, not logged");
		}
		return true;
	}

	/**
	 * An informer that had listed is seen not watching: past the grace, an outage starts
	 * (backdated to when it was first seen), counted and logged once, unless a failure
	 * started one already.
	 * @param now {@link System#nanoTime()}
	 */
	void notWatching(long now) {
		synchronized (this) {
			if (this.inOutage) {
				return;
			}
			if (this.notWatchingSince == NOT_SEEN) {
				this.notWatchingSince = now;
				return;
			}
			if (now - this.notWatchingSince < NOT_WATCHING_GRACE_NANOS) {
				return;
			}
			this.inOutage = true;
			this.since = this.notWatchingSince;
			this.notWatchingSince = NOT_SEEN;
			this.cause = NOT_WATCHING + ": the watch ended and fabric8 is opening it again";
		}
		this.byReason.computeIfAbsent(NOT_WATCHING, (r) -> new LongAdder()).increment();
		logger.warn("Informer of queue '" + this.queueName + "' (" + this.resource + ") has not been watching for "
				+ NOT_WATCHING_GRACE_NANOS / 1_000_000 + " ms (its watch ended; fabric8 opens it again with backoff)."
				+ " Further failures of this outage are counted, not logged");
	}

	/**
	 * The informers watch (all of them): an outage, if one was on, ends.
	 */
	void watching() {
		long lasted;
		synchronized (this) {
			this.notWatchingSince = NOT_SEEN;
			if (!this.inOutage) {
				return;
			}
			this.inOutage = false;
			lasted = System.nanoTime() - this.since;
		}
		logger.info("Informer of queue '" + this.queueName + "' (" + this.resource + ") watches again after "
				+ lasted / 1_000_000 + " ms");
	}

	/**
	 * How long the current outage has lasted, or -1 if none is on.
	 * @param now {@link System#nanoTime()}
	 */
	synchronized long outageNanos(long now) {
		return this.inOutage ? now - this.since : -1;
	}

	/** The last failure's reason and message, or {@code null} if none came. */
	synchronized @Nullable String cause() {
		return this.cause;
	}

	/** The failures by reason so far. */
	Map<String, Long> counts() {
		Map<String, Long> counts = new java.util.TreeMap<>();
		this.byReason.forEach((reason, count) -> counts.put(reason, count.sum()));
		return counts;
	}

	/** How many failures of a reason came so far. */
	long count(String reason) {
		LongAdder count = this.byReason.get(reason);
		return (count != null) ? count.sum() : 0;
	}

	/**
	 * The reason of a failure, as a metric tag: {@code forbidden} (403: RBAC lacks the
	 * verb on the resource), {@code not-found} (404: the kind or namespace does not
	 * exist, a CRD not installed), {@code unauthorized} (401), {@code server-error}
	 * (5xx), {@code watch-closed} (the server ended a watch with an error status),
	 * {@code unreachable} (no connection), else {@code other}; and {@link #NOT_WATCHING}
	 * for an outage seen in the informers' state only.
	 */
	static String reason(Throwable failure) {
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof WatcherException) {
				return "watch-closed";
			}
			if (t instanceof KubernetesClientException client && client.getCode() > 0) {
				int code = client.getCode();
				if (code == HttpURLConnection.HTTP_FORBIDDEN) {
					return "forbidden";
				}
				if (code == HttpURLConnection.HTTP_NOT_FOUND) {
					return "not-found";
				}
				if (code == HttpURLConnection.HTTP_UNAUTHORIZED) {
					return "unauthorized";
				}
				if (code >= 500) {
					return "server-error";
				}
				return "other";
			}
			if (t instanceof ConnectException || t instanceof java.io.IOException) {
				return "unreachable";
			}
		}
		return "other";
	}

	private String describe(Throwable failure) {
		String message = failure.getMessage();
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		if (root != failure && root.getMessage() != null && (message == null || !message.contains(root.getMessage()))) {
			message = message + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
		}
		String hint = switch (reason(failure)) {
			case "forbidden" -> "; grant the service account list and watch on " + this.resource;
			case "not-found" -> "; is " + this.resource + " installed (its CRD), and does the namespace exist?";
			default -> "";
		};
		return message + hint;
	}

}
