package io.github.workqueue.core.trace;

import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The trace contexts of the adds one processing of a key serves: the first add that
 * carried a context is the {@linkplain #parent() parent} of the processing's span; the
 * later ones, which deduplication absorbed, are its {@linkplain #links() links}, at most
 * {@value #MAX_LINKS}, and the rest are {@linkplain #droppedLinks() counted}. Immutable.
 *
 * <p>
 * <b>Bounds.</b> A context is at most {@value #MAX_CONTEXT_LENGTH} characters with no
 * whitespace (a W3C {@code traceparent} is 55), so a key keeps at most {@value #MAX_KEPT}
 * contexts and a count: under 1.2 KB, however often it is added. On Redis they are stored
 * as one string, the count of contexts added, then the kept contexts, separated by spaces
 * ({@link #decode(String)}).
 */
public final class AddTraces {

	/** The most links a processing gets. */
	public static final int MAX_LINKS = 8;

	/** The most contexts kept per key: the parent and the links. */
	public static final int MAX_KEPT = MAX_LINKS + 1;

	/** The longest context accepted. */
	public static final int MAX_CONTEXT_LENGTH = 128;

	private final String[] kept;

	private final int added;

	private AddTraces(String[] kept, int added) {
		this.kept = kept;
		this.added = added;
	}

	/**
	 * Tells whether a context can be kept: not null or empty, at most
	 * {@value #MAX_CONTEXT_LENGTH} characters, no whitespace or control character.
	 * @param context the context
	 * @return true if a queue keeps it
	 */
	public static boolean accepts(@Nullable String context) {
		if (context == null || context.isEmpty() || context.length() > MAX_CONTEXT_LENGTH) {
			return false;
		}
		for (int i = 0; i < context.length(); i++) {
			if (context.charAt(i) <= ' ') {
				return false;
			}
		}
		return true;
	}

	/**
	 * Returns the traces with one more add's context.
	 * @param traces the traces so far, or null for none
	 * @param context an accepted context
	 * @return the traces with it: as a link if there is room, else counted
	 */
	public static AddTraces plus(@Nullable AddTraces traces, String context) {
		if (traces == null) {
			return new AddTraces(new String[] { context }, 1);
		}
		if (traces.kept.length == MAX_KEPT) {
			return new AddTraces(traces.kept, traces.added + 1);
		}
		String[] kept = Arrays.copyOf(traces.kept, traces.kept.length + 1);
		kept[traces.kept.length] = context;
		return new AddTraces(kept, traces.added + 1);
	}

	/**
	 * Reads the stored form: the number of contexts added, then the kept contexts, all
	 * separated by one space.
	 * @param stored the stored form
	 * @return the traces, or null if the form is not one (nothing to continue)
	 */
	public static @Nullable AddTraces decode(@Nullable String stored) {
		if (stored == null) {
			return null;
		}
		String[] parts = stored.split(" ");
		if (parts.length < 2) {
			return null;
		}
		int added;
		try {
			added = Integer.parseInt(parts[0]);
		}
		catch (NumberFormatException ex) {
			return null;
		}
		String[] kept = Arrays.copyOfRange(parts, 1, Math.min(parts.length, MAX_KEPT + 1));
		return new AddTraces(kept, Math.max(added, kept.length));
	}

	/**
	 * Returns the context of the first add.
	 * @return the parent's context
	 */
	public String parent() {
		return this.kept[0];
	}

	/**
	 * Returns the contexts of the later adds that were kept, in the order of the adds.
	 * @return at most {@value #MAX_LINKS} contexts
	 */
	public List<String> links() {
		return List.of(this.kept).subList(1, this.kept.length);
	}

	/**
	 * Returns how many later adds carried a context that was not kept.
	 * @return the count beyond {@value #MAX_LINKS} links
	 */
	public int droppedLinks() {
		return this.added - this.kept.length;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof AddTraces that && this.added == that.added && Arrays.equals(this.kept, that.kept);
	}

	@Override
	public int hashCode() {
		return 31 * Arrays.hashCode(this.kept) + this.added;
	}

	@Override
	public String toString() {
		return "AddTraces[parent=" + parent() + ", links=" + links() + ", droppedLinks=" + droppedLinks() + "]";
	}

}
