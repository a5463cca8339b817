package io.github.workqueue.redis.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.redis.TestRedisCluster;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link WorkerProcess} started in a JVM of its own, which a test can kill, pause
 * ({@code SIGSTOP}, as a long GC pause or a network partition looks to Redis) and resume.
 *
 * @param process the JVM
 * @param holder the instance's holder name, as its leases show it
 */
record WorkerInstance(Process process, String holder) {

	/**
	 * Starts an instance and waits until its workers run.
	 * @param queue the queue's name
	 * @param holder the holder name
	 * @param lease the lease duration
	 * @param workers worker threads
	 * @param fairness whether its queue has fairness by {@link WorkerProcess#TENANT}
	 * @param workMillis how long each item takes, or absent for WorkerProcess's default
	 * @return the running instance
	 * @throws IOException if the JVM cannot be started
	 */
	static WorkerInstance start(String queue, String holder, Duration lease, int workers, boolean fairness,
			Long... workMillis) throws IOException {
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
				System.getProperty("java.class.path"), WorkerProcess.class.getName(), TestRedis.uri(), queue, holder,
				Long.toString(lease.toMillis()), Integer.toString(workers), fairness ? "fair" : "fifo"));
		for (Long millis : workMillis) {
			command.add(millis.toString());
		}
		return start(command, holder);
	}

	/**
	 * Starts an instance of a queue of several shards on the test cluster
	 * ({@link TestRedisCluster}), with fairness as {@link #start} has it, and waits until
	 * its workers run.
	 * @param queue the queue's name
	 * @param holder the holder name
	 * @param lease the lease duration
	 * @param workers worker threads
	 * @param shards the queue's shards
	 * @return the running instance
	 * @throws IOException if the JVM cannot be started
	 */
	static WorkerInstance startOnCluster(String queue, String holder, Duration lease, int workers, int shards)
			throws IOException {
		return start(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
				"-D" + WorkerProcess.SHARDS + "=" + shards, "-cp", System.getProperty("java.class.path"),
				WorkerProcess.class.getName(), TestRedisCluster.uri(), queue, holder, Long.toString(lease.toMillis()),
				Integer.toString(workers), "fifo"), holder);
	}

	private static WorkerInstance start(List<String> command, String holder) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line;
		do {
			line = output.readLine();
		}
		while (line != null && !line.equals("ready " + holder));
		assertThat(line).as("instance " + holder + " started").isNotNull();
		Thread drain = new Thread(() -> output.lines().forEach((ignored) -> {
		}));
		drain.setDaemon(true);
		drain.start();
		return new WorkerInstance(process, holder);
	}

	/** Kills the JVM with SIGKILL and waits until it is gone. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor();
	}

	/** Freezes every thread of the JVM with SIGSTOP; its connections stay open. */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/** Lets a paused JVM run again with SIGCONT. */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String name) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).inheritIO().start();
		assertThat(kill.waitFor()).as("kill -" + name + " exit status").isZero();
	}

}
