package io.github.workqueue.redis.internal.link;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;

/**
 * What a failed script call means: the server lacked the script or the function library
 * (a restart, a failover, a flush), or it refuses functions (an ACL, an older server or a
 * proxy). Those are the failures that a second try mends ({@link ScriptCalls}); any other
 * is the caller's. Stateless.
 */
final class ScriptFailures {

	/** The start of a server's reply to a call of a function that it does not have. */
	private static final String FUNCTION_NOT_FOUND = "ERR Function not found";

	private ScriptFailures() {
	}

	/** Whether a second try mends the failure. */
	static boolean wantSecondTry(RedisException failure) {
		return failure instanceof RedisNoScriptException || lacksFunction(failure) || refusesFunctions(failure);
	}

	/**
	 * Whether the server did not have the called function (its library is not loaded).
	 */
	static boolean lacksFunction(RedisException failure) {
		return isCommandError(failure, FUNCTION_NOT_FOUND);
	}

	/** Whether the server refused functions: not allowed, or not known to it. */
	static boolean refusesFunctions(RedisException failure) {
		return isCommandError(failure, "NOPERM") || isCommandError(failure, "ERR unknown command")
				|| isCommandError(failure, "ERR unknown subcommand");
	}

	/** Whether a failure is the server's error reply, starting with the given text. */
	private static boolean isCommandError(RedisException failure, String start) {
		return failure instanceof RedisCommandExecutionException && failure.getMessage() != null
				&& failure.getMessage().startsWith(start);
	}

}
