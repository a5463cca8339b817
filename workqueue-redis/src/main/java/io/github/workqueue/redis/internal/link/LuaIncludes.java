package io.github.workqueue.redis.internal.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Lua files the scripts include ({@code scripts/includes/NAME.lua}), one concern
 * each: a script or an included file names what it uses with {@code --@include NAME}
 * lines at its top, and {@link #code} puts each file included, directly or not, once,
 * after the files it includes itself. Every script includes {@code state} (the key layout
 * and {@code begin}) first. An unknown name or a cycle is refused with the chain that
 * leads to it. Thread-safe: files are read once and kept.
 */
final class LuaIncludes {

	/** What every script includes first: the key layout, one call's state, begin(). */
	static final String STATE = "state";

	private static final String DIRECTIVE = "--@include ";

	private static final ConcurrentHashMap<String, String> files = new ConcurrentHashMap<>();

	private LuaIncludes() {
	}

	/**
	 * The names a script or an included file includes: its leading {@code --@include}
	 * lines, in order.
	 */
	static List<String> namesIn(String code) {
		List<String> names = new ArrayList<>();
		for (String line : code.split("\n", -1)) {
			if (!line.startsWith(DIRECTIVE)) {
				break;
			}
			names.add(line.substring(DIRECTIVE.length()).strip());
		}
		return names;
	}

	/**
	 * The code of the files that the given names include, {@link #STATE} first: each file
	 * once, after those it includes.
	 * @throws IllegalStateException if a name has no file, or the includes form a cycle
	 */
	static String code(List<String> names) {
		Set<String> placed = new LinkedHashSet<>();
		List<String> chain = new ArrayList<>();
		place(STATE, placed, chain);
		for (String name : names) {
			place(name, placed, chain);
		}
		StringBuilder code = new StringBuilder();
		for (String name : placed) {
			code.append(file(name)).append('\n');
		}
		return code.toString();
	}

	private static void place(String name, Set<String> placed, List<String> chain) {
		if (placed.contains(name)) {
			return;
		}
		if (chain.contains(name)) {
			List<String> cycle = new ArrayList<>(chain.subList(chain.indexOf(name), chain.size()));
			cycle.add(name);
			throw new IllegalStateException("Lua includes form a cycle: " + String.join(" -> ", cycle));
		}
		chain.add(name);
		String code = file(name);
		for (String included : namesIn(code)) {
			place(included, placed, chain);
		}
		chain.remove(chain.size() - 1);
		placed.add(name);
	}

	private static String file(String name) {
		return files.computeIfAbsent(name, LuaIncludes::read);
	}

	private static String read(String name) {
		if (!name.matches("[A-Za-z][A-Za-z0-9]*")) {
			throw new IllegalStateException("Not a Lua include name: '" + name + "'");
		}
		String path = "scripts/includes/" + name + ".lua";
		try (InputStream in = LuaIncludes.class.getResourceAsStream(path)) {
			if (in == null) {
				throw new IllegalStateException("No Lua include '" + name + "' (" + path + ")");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
