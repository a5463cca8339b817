package io.github.workqueue.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;

/**
 * A TCP proxy on the loopback between one replica and the mock API server, which puts
 * faults in front of it: {@link Mode#PASS} forwards every byte, {@link Mode#HOLD} holds
 * every byte in both directions (a partition: connections stay open, nothing arrives),
 * {@link Mode#REFUSE} cuts every connection and closes each new one at once. Going from
 * one mode to another applies to the connections already open.
 *
 * <p>
 * <b>Concurrency.</b> Thread-safe: the mode is guarded by this object's monitor, on which
 * held pumps wait; each connection has two pump threads.
 */
final class FaultProxy implements AutoCloseable {

	enum Mode {

		PASS, HOLD, REFUSE

	}

	private final ServerSocket server;

	private final int targetPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private Mode mode = Mode.PASS;

	private volatile boolean closed;

	private final InetAddress address;

	/**
	 * @param address the loopback address to listen on and to reach the server at
	 * @param targetPort the server's port
	 */
	FaultProxy(InetAddress address, int targetPort) throws IOException {
		this.address = address;
		this.targetPort = targetPort;
		this.server = new ServerSocket();
		this.server.bind(new InetSocketAddress(address, 0));
		Thread acceptor = new Thread(this::accept, "fault-proxy-" + port());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	/**
	 * A client configuration of the mock server that goes through this proxy, with a
	 * short connection timeout; tests add their own settings.
	 * @param mock the mock server's client configuration
	 * @return a builder of the configuration
	 */
	ConfigBuilder configThrough(Config mock) {
		URI master = URI.create(mock.getMasterUrl());
		return new ConfigBuilder(mock).withMasterUrl(master.getScheme() + "://" + master.getHost() + ":" + port() + "/")
			.withConnectionTimeout(1000);
	}

	synchronized void mode(Mode mode) {
		this.mode = mode;
		notifyAll();
		if (mode == Mode.REFUSE) {
			cutAll();
		}
	}

	private void cutAll() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				synchronized (this) {
					if (this.mode == Mode.REFUSE) {
						closeQuietly(client);
						continue;
					}
				}
				Socket upstream = new Socket(this.address, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// Closed, or the server refused: the client sees its connection fail.
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16384];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				int read;
				while ((read = in.read(buffer)) >= 0) {
					awaitPassing();
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// Cut.
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "fault-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	private synchronized void awaitPassing() throws InterruptedException, IOException {
		while (this.mode == Mode.HOLD && !this.closed) {
			wait();
		}
		if (this.mode == Mode.REFUSE || this.closed) {
			throw new IOException("cut");
		}
	}

	@Override
	public void close() {
		this.closed = true;
		closeQuietly(this.server);
		synchronized (this) {
			notifyAll();
		}
		cutAll();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Closing.
		}
	}

}
