package io.github.workqueue.redis.failover;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.workqueue.redis.RedisQueueConnection;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;

/**
 * A TCP proxy between clients and one Redis, for fault injection: each direction can be
 * held (bytes wait in the proxy and the kernel's buffers, and are delivered in order once
 * released, as through a stalled network), and every open connection can be reset (what a
 * crashed middlebox or a failed-over address does to a client). Nothing is dropped but by
 * a reset.
 *
 * <p>
 * Thread-safe: the hold flags and the connection list are guarded by this object's
 * monitor, on which the forwarding threads wait while their direction is held.
 */
public final class FaultProxy implements AutoCloseable {

	private final InetSocketAddress target;

	private final ServerSocket server;

	private final List<Socket> open = new ArrayList<>();

	private final List<RedisClient> clients = new ArrayList<>();

	private final List<RedisQueueConnection> connections = new ArrayList<>();

	private boolean requestsHeld;

	private boolean repliesHeld;

	private boolean closed;

	/**
	 * Starts a proxy on a free local port.
	 * @param redis the URI of the Redis to forward to
	 */
	public FaultProxy(RedisURI redis) throws IOException {
		this.target = new InetSocketAddress(redis.getHost(), redis.getPort());
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "fault-proxy-accept-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * A queue connection to Redis through this proxy, with the given command timeout and
	 * a connect timeout of half a second; closed, with its client, by {@link #close()}.
	 */
	public RedisQueueConnection connection(Duration commandTimeout) {
		RedisClient client = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(this.server.getLocalPort())
			.withTimeout(commandTimeout)
			.build());
		client.setOptions(ClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build())
			.build());
		RedisQueueConnection connection = RedisQueueConnection.of(client);
		synchronized (this) {
			this.clients.add(client);
			this.connections.add(connection);
		}
		return connection;
	}

	/** Holds, or releases, what clients send to Redis. */
	public synchronized void holdRequests(boolean held) {
		this.requestsHeld = held;
		notifyAll();
	}

	/** Holds, or releases, what Redis sends to clients. */
	public synchronized void holdReplies(boolean held) {
		this.repliesHeld = held;
		notifyAll();
	}

	/** Releases both directions. */
	public synchronized void heal() {
		this.requestsHeld = false;
		this.repliesHeld = false;
		notifyAll();
	}

	/**
	 * Resets every open connection (an RST to both ends); bytes held on them are lost.
	 * New connections are accepted as before, under the same holds.
	 */
	public void reset() {
		List<Socket> sockets;
		synchronized (this) {
			sockets = new ArrayList<>(this.open);
			this.open.clear();
			notifyAll();
		}
		sockets.forEach(FaultProxy::abort);
	}

	/**
	 * Heals, closes the connections made by {@link #connection}, and stops forwarding.
	 */
	@Override
	public void close() {
		heal();
		List<RedisClient> made;
		synchronized (this) {
			this.closed = true;
			made = new ArrayList<>(this.clients);
			this.connections.forEach(RedisQueueConnection::close);
		}
		made.forEach(RedisClient::shutdown);
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		reset();
	}

	private void accept() {
		while (true) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				return;
			}
			Socket redis = new Socket();
			try {
				redis.connect(this.target, 2000);
			}
			catch (IOException ex) {
				abort(client);
				continue;
			}
			synchronized (this) {
				if (this.closed) {
					abort(client);
					abort(redis);
					return;
				}
				this.open.add(client);
				this.open.add(redis);
			}
			forward(client, redis, true);
			forward(redis, client, false);
		}
	}

	private void forward(Socket from, Socket to, boolean requests) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) != -1) {
					if (!awaitRelease(requests, from)) {
						return;
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// reset or closed: the other pump ends too
			}
			finally {
				synchronized (this) {
					this.open.remove(from);
					this.open.remove(to);
					notifyAll();
				}
				abort(from);
				abort(to);
			}
		}, "fault-proxy-" + (requests ? "requests-" : "replies-") + from.getPort());
		pump.setDaemon(true);
		pump.start();
	}

	/** Waits while the direction is held; false once the connection was reset. */
	private synchronized boolean awaitRelease(boolean requests, Socket from) {
		while ((requests ? this.requestsHeld : this.repliesHeld) && this.open.contains(from)) {
			try {
				wait();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return this.open.contains(from);
	}

	private static void abort(Socket socket) {
		try {
			socket.setSoLinger(true, 0);
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

}
