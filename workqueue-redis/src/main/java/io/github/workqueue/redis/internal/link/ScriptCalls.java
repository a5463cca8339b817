package io.github.workqueue.redis.internal.link;

import java.lang.System.Logger.Level;
import java.util.function.Function;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;

/**
 * How a script reaches the server: as a function of {@link ScriptLibrary} while the
 * server accepts functions, else by its digest ({@code EVALSHA}); and the second try
 * after a first one the server did not run (the library or the script not loaded there,
 * or functions refused).
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the one state, whether functions are still used, is a
 * volatile flag that only ever turns false.
 */
final class ScriptCalls {

	private static final System.Logger logger = System.getLogger(io.github.workqueue.redis.RedisQueue.class.getName());

	/** False once a server refused functions: scripts are sent instead, from then on. */
	private volatile boolean functions = true;

	/** The first try of a script: as a function, or by its digest. */
	<R> RedisFuture<R> firstTry(LinkCommands current, Script script, ScriptOutputType type, String[] keys,
			String... args) {
		if (this.functions) {
			return current.functions().fcall(ScriptLibrary.functionOf(script), type, keys, args);
		}
		return current.scripting().evalsha(script.sha1(), type, keys, args);
	}

	/**
	 * After a first try that the server did not run because it lacked the function or the
	 * script, or refused functions: loads the library and calls again, or sends the
	 * script's text. Any other failure is the caller's.
	 */
	<R> R secondTry(LinkCommands current, RedisException failure, Script script, ScriptOutputType type, String[] keys,
			String... args) {
		return secondTry(current, failure, script, type, keys, (call) -> call.apply(args));
	}

	/**
	 * The second try as above, whose call goes through {@code sending}: it gives the call
	 * its arguments at the moment it leaves (a call numbered to run at most once takes
	 * its number then, see {@link RedisLink#runOnce}).
	 */
	<R> R secondTry(LinkCommands current, RedisException failure, Script script, ScriptOutputType type, String[] keys,
			Sending<R> sending) {
		RedisException refusal = failure;
		if (failure instanceof RedisNoScriptException) {
			return SentScript.await(sending.send((args) -> current.scripting().eval(script.body(), type, keys, args)),
					current.timeout());
		}
		if (ScriptFailures.lacksFunction(failure)) {
			try {
				current.libraryLoader().accept((keys.length > 0) ? keys[0] : "");
				return SentScript.await(sending
					.send((args) -> current.functions().fcall(ScriptLibrary.functionOf(script), type, keys, args)),
						current.timeout());
			}
			catch (RedisException ex) {
				refusal = ex;
			}
		}
		if (!ScriptFailures.refusesFunctions(refusal)) {
			throw refusal;
		}
		useScripts(refusal);
		return SentScript.await(sending.send((args) -> current.scripting().eval(script.body(), type, keys, args)),
				current.timeout());
	}

	/** How a call leaves: with which arguments, and in which order among others. */
	@FunctionalInterface
	interface Sending<R> {

		/** Sends the call with the arguments it is to carry. */
		RedisFuture<R> send(Function<String[], RedisFuture<R>> call);

	}

	private void useScripts(RedisException refusal) {
		if (this.functions) {
			this.functions = false;
			logger.log(Level.INFO, "Redis refused functions (" + refusal.getMessage()
					+ "): the queues send their scripts with EVALSHA instead, which costs Redis more per call");
		}
	}

}
