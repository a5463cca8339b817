package io.github.workqueue.redis.internal.link;

/**
 * Every {@link Script} as one Redis function library ({@code FUNCTION LOAD}, Redis 7):
 * the included files' functions ({@link LuaIncludes}) are made once when the library
 * loads instead of on every call, which is most of a small script's cost. The library's
 * name carries a digest of its code, so that two versions of this library (a rolling
 * upgrade) each call their own functions; the older one stays on the server, unused,
 * until removed by hand. Immutable.
 */
final class ScriptLibrary {

	/**
	 * The library's name: {@code workqueue_} and 16 hexadecimal digits of its code's
	 * digest.
	 */
	static final String NAME;

	/** The library's code, as {@code FUNCTION LOAD} takes it. */
	static final String CODE;

	private static final String[] FUNCTIONS = new String[Script.values().length];

	static {
		// The digest is of the code with a placeholder name, so that it covers everything
		// that the name then stands for.
		NAME = "workqueue_" + Script.sha1(code("workqueue")).substring(0, 16);
		CODE = code(NAME);
		for (Script script : Script.values()) {
			FUNCTIONS[script.ordinal()] = functionOf(script, NAME);
		}
	}

	private ScriptLibrary() {
	}

	/** The name of the function that runs a script. */
	static String functionOf(Script script) {
		return FUNCTIONS[script.ordinal()];
	}

	private static String functionOf(Script script, String library) {
		return library + "_" + script.fileName();
	}

	private static String code(String library) {
		StringBuilder code = new StringBuilder("#!lua name=").append(library)
			.append('\n')
			.append(Script.included(Script.values()));
		for (Script script : Script.values()) {
			code.append("redis.register_function('")
				.append(functionOf(script, library))
				.append("', function(KEYS, ARGV)\nbegin(KEYS, ARGV)\n")
				.append(script.operation())
				.append("\nend)\n");
		}
		return code.toString();
	}

}
