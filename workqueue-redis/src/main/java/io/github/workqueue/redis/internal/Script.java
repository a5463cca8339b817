package io.github.workqueue.redis.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts, one per queue operation, each prefixed with {@code common.lua}.
 * Immutable.
 */
public enum Script {

	BATCH("batch"), ADD_AFTER("addAfter"), ADD_RATE_LIMITED("addRateLimited"), WHEN("when"), RENEW("renew"),
	RESERVE("reserve"), RELEASE("release"), PARK("park"), UNPARK("unpark"), STATS("stats"), IN_FLIGHT("inFlight"),
	ADD_WITH("addWith"), LEN("len"), LEN_BY_PRIORITY("lenByPriority"), LEN_BY_FAIRNESS_KEY("lenByFairnessKey");

	private final String body;

	private final String sha1;

	Script(String file) {
		this.body = read("common") + "\n" + read(file);
		this.sha1 = sha1(this.body);
	}

	String body() {
		return this.body;
	}

	String sha1() {
		return this.sha1;
	}

	private static String read(String name) {
		String path = "scripts/" + name + ".lua";
		try (InputStream in = Script.class.getResourceAsStream(path)) {
			if (in == null) {
				throw new IllegalStateException("Missing script " + path);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String sha1(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
