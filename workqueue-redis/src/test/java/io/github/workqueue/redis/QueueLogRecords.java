package io.github.workqueue.redis;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Records what Redis queues log during each test ({@code @RegisterExtension}): the
 * records of the {@link RedisQueue} logger, through {@code java.util.logging}, which
 * {@code System.Logger} uses by default.
 */
final class QueueLogRecords extends Handler implements BeforeEachCallback, AfterEachCallback {

	private final Logger logger = Logger.getLogger(RedisQueue.class.getName());

	private final List<LogRecord> records = new CopyOnWriteArrayList<>();

	@Override
	public void beforeEach(ExtensionContext context) {
		this.logger.addHandler(this);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.logger.removeHandler(this);
	}

	@Override
	public void publish(LogRecord record) {
		this.records.add(record);
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
	}

	/** The records so far. */
	List<LogRecord> all() {
		return List.copyOf(this.records);
	}

	/** The messages logged at a level so far. */
	List<String> messages(Level level) {
		return this.records.stream()
			.filter((record) -> record.getLevel().equals(level))
			.map(LogRecord::getMessage)
			.toList();
	}

}
