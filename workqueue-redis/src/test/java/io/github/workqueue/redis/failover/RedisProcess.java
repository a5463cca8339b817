package io.github.workqueue.redis.failover;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import redis.embedded.RedisExecProvider;

/**
 * A {@code redis-server} process of the embedded binary that a test can kill with SIGKILL
 * and start again on the same port with the same files: a server, a replica or, with
 * {@code --sentinel}, a sentinel. Its output goes to {@code redis.log} in its directory.
 * Not thread-safe: one test thread drives it.
 */
public final class RedisProcess implements AutoCloseable {

	private static File binary;

	private final int port;

	private final Path dir;

	private final List<String> arguments;

	private Process process;

	private RedisProcess(int port, Path dir, List<String> arguments) {
		this.port = port;
		this.dir = dir;
		this.arguments = arguments;
	}

	/**
	 * Starts a server.
	 * @param port its port
	 * @param dir its working directory (append-only file, cluster configuration)
	 * @param settings configuration lines, such as {@code "appendonly yes"}
	 * @return the server, answering
	 */
	public static RedisProcess server(int port, Path dir, String... settings) {
		List<String> lines = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "save \"\"", "dir " + dir));
		lines.addAll(List.of(settings));
		return start(port, dir, lines, false);
	}

	/**
	 * Starts a sentinel.
	 * @param port its port
	 * @param dir its working directory, where it rewrites its configuration
	 * @param settings configuration lines, such as {@code "sentinel monitor ..."}
	 * @return the sentinel, answering
	 */
	public static RedisProcess sentinel(int port, Path dir, String... settings) {
		List<String> lines = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "dir " + dir));
		lines.addAll(List.of(settings));
		return start(port, dir, lines, true);
	}

	private static RedisProcess start(int port, Path dir, List<String> lines, boolean sentinel) {
		try {
			Files.createDirectories(dir);
			Path config = dir.resolve("redis.conf");
			Files.write(config, lines);
			List<String> arguments = new ArrayList<>(List.of(binary().getAbsolutePath(), config.toString()));
			if (sentinel) {
				arguments.add("--sentinel");
			}
			RedisProcess redis = new RedisProcess(port, dir, arguments);
			redis.start();
			return redis;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static synchronized File binary() throws IOException {
		if (binary == null) {
			binary = RedisExecProvider.defaultProvider().get();
			binary.setExecutable(true);
		}
		return binary;
	}

	public int port() {
		return this.port;
	}

	public Path dir() {
		return this.dir;
	}

	/** Starts the process (again), and waits until its port accepts connections. */
	public void start() {
		try {
			this.process = new ProcessBuilder(this.arguments).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.dir.resolve("redis.log").toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (!accepts()) {
			if (!this.process.isAlive() || System.nanoTime() > deadline) {
				throw new IllegalStateException(
						"redis-server on port " + this.port + " did not start; see " + this.dir.resolve("redis.log"));
			}
			pause();
		}
	}

	/** Kills the process with SIGKILL, as a crash would, and waits until it is gone. */
	public void kill() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Stops the process with SIGSTOP, as a frozen VM would: its connections stay open and
	 * nothing it is sent is answered until {@link #resume()}.
	 */
	public void suspend() {
		signal("STOP");
	}

	/** Lets a suspended process run again (SIGCONT). */
	public void resume() {
		signal("CONT");
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + this.process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public boolean isAlive() {
		return this.process != null && this.process.isAlive();
	}

	private boolean accepts() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static void pause() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		if (this.process != null) {
			kill();
		}
	}

}
