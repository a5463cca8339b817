package io.github.workqueue.redis.internal.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The Lua scripts, one per queue operation, each run after {@code begin} (of the
 * {@code state} include): sent as a script ({@link #body()}, with the files it includes
 * in front, {@link LuaIncludes}) or called as a function of {@link ScriptLibrary}.
 * Immutable.
 */
public enum Script {

	BATCH("batch"), ADD_AFTER("addAfter"), ADD_RATE_LIMITED("addRateLimited"), WHEN("when"), RENEW("renew"),
	RESERVE("reserve"), RELEASE("release"), PARK("park"), UNPARK("unpark"), STATS("stats"), IN_FLIGHT("inFlight"),
	ADD_WITH("addWith"), LEN("len"), LEN_BY_PRIORITY("lenByPriority"), LEN_BY_FAIRNESS_KEY("lenByFairnessKey"),
	PAUSE("pause"), PAUSED("paused"), DEAD_LETTER("deadLetter"), DEAD_LETTERS("deadLetters"),
	DROP_DEAD_LETTER("dropDeadLetter"), REMOVE("remove");

	private final String name;

	private final String operation;

	/** The files the script names at its top. */
	private final List<String> includes;

	private final String body;

	private final String sha1;

	Script(String file) {
		this.name = file;
		this.operation = read(file);
		this.includes = LuaIncludes.namesIn(this.operation);
		this.body = LuaIncludes.code(this.includes) + "begin(KEYS, ARGV)\n" + this.operation;
		this.sha1 = sha1(this.body);
	}

	/** The script's file name, without {@code .lua}. */
	String fileName() {
		return this.name;
	}

	/**
	 * The script's own code, which expects the files it includes and their {@code begin}
	 * before it.
	 */
	String operation() {
		return this.operation;
	}

	/** The whole script, as {@code EVAL} takes it. */
	String body() {
		return this.body;
	}

	String sha1() {
		return this.sha1;
	}

	/**
	 * The included code that the given scripts need, as a function library holds it
	 * before their functions: each included file once, after those it includes.
	 * @param scripts the scripts
	 * @return the code
	 */
	public static String included(Script... scripts) {
		List<String> names = new ArrayList<>();
		for (Script script : scripts) {
			names.addAll(script.includes);
		}
		return LuaIncludes.code(names);
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

	static String sha1(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
