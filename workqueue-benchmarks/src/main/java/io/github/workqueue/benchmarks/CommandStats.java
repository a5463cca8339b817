package io.github.workqueue.benchmarks;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * One reading of {@code INFO commandstats}: per command, how many times redis-server ran
 * it and for how many microseconds in all, commands run by scripts included. Two readings
 * around a piece of work give what it ran ({@link #since(CommandStats)}).
 *
 * @param byCommand the command's name (lower case, as Redis prints it) to its counts
 */
record CommandStats(Map<String, Counts> byCommand) {

	/** The commands that run a queue's script. */
	static final Set<String> SCRIPTS = Set.of("fcall", "evalsha", "eval");

	/**
	 * How often a command ran and for how long.
	 *
	 * @param calls the times it ran
	 * @param micros the microseconds it took in all
	 */
	record Counts(long calls, long micros) {

		static final Counts NONE = new Counts(0, 0);

	}

	static CommandStats read(RedisCommands<String, String> redis) {
		Map<String, Counts> byCommand = new TreeMap<>();
		for (String line : redis.info("commandstats").split("\\r?\\n")) {
			if (line.startsWith("cmdstat_")) {
				// cmdstat_<name>:calls=<n>,usec=<n>,usec_per_call=...
				String[] fields = line.substring(line.indexOf(':') + 1).split(",");
				byCommand.put(line.substring("cmdstat_".length(), line.indexOf(':')),
						new Counts(Long.parseLong(fields[0].substring("calls=".length())),
								Long.parseLong(fields[1].substring("usec=".length()))));
			}
		}
		return new CommandStats(byCommand);
	}

	/**
	 * Returns what ran between an earlier reading and this one, without the readings' own
	 * {@code INFO} calls.
	 * @param earlier a reading taken before this one
	 * @return per command that ran, its calls and microseconds since then
	 */
	CommandStats since(CommandStats earlier) {
		Map<String, Counts> ran = new TreeMap<>();
		this.byCommand.forEach((command, now) -> {
			Counts before = earlier.byCommand.getOrDefault(command, Counts.NONE);
			if (now.calls() > before.calls() && !command.equals("info")) {
				ran.put(command, new Counts(now.calls() - before.calls(), now.micros() - before.micros()));
			}
		});
		return new CommandStats(ran);
	}

	/**
	 * Returns the counts of every command but the scripts, summed: the commands that
	 * scripts ran, when only scripts were sent.
	 * @return their calls and microseconds
	 */
	Counts commands() {
		long calls = 0;
		long micros = 0;
		for (Map.Entry<String, Counts> entry : this.byCommand.entrySet()) {
			if (!SCRIPTS.contains(entry.getKey())) {
				calls += entry.getValue().calls();
				micros += entry.getValue().micros();
			}
		}
		return new Counts(calls, micros);
	}

	/**
	 * Returns each command with how many times it ran and for how long per unit of work,
	 * in name order.
	 * @param units the units of work (calls, items) to divide by
	 * @return lines such as {@code "hmget 2.00 (1.1us)  zadd 1.00 (0.9us)  "}
	 */
	String perUnit(double units) {
		StringBuilder line = new StringBuilder();
		this.byCommand.forEach((command, counts) -> line
			.append(String.format("%s %.2f (%.1fus)  ", command, counts.calls() / units, counts.micros() / units)));
		return line.toString();
	}

	/**
	 * Returns the counts of some commands, summed.
	 * @param commands their names
	 * @return their calls and microseconds
	 */
	Counts of(Set<String> commands) {
		long calls = 0;
		long micros = 0;
		for (String command : commands) {
			Counts counts = this.byCommand.getOrDefault(command, Counts.NONE);
			calls += counts.calls();
			micros += counts.micros();
		}
		return new Counts(calls, micros);
	}

}
