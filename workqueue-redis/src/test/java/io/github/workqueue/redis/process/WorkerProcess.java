package io.github.workqueue.redis.process;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueBuilder;
import io.github.workqueue.redis.RedisQueueConnection;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * One instance of a shared queue in a JVM of its own, for {@link ProcessKillTest}: its
 * workers take items and record what they saw in Redis, so that the test can check the
 * invariants from outside while it kills instances.
 *
 * <p>
 * For each item, a worker claims {@code active[item]} with its lease token (finding it
 * taken means two live leases: a violation), reads the item's version (how many adds the
 * producer had made), works a little, records the version and its holder as seen,
 * releases its own claim and marks the item done.
 *
 * <p>
 * Arguments: Redis URI, queue name, holder name, lease in milliseconds, worker threads,
 * {@code fair} for a queue with fairness by {@link #TENANT} (else {@code fifo}), and
 * optionally how long each item takes, in milliseconds (else 1 ms for one item in four).
 * With {@code -D}{@value #SHARDS}{@code =N} the URI names a node of a Redis Cluster and
 * the queue has N shards.
 */
public final class WorkerProcess {

	/**
	 * Fairness by the part of an item before its {@code /}: {@code t3/k42} is tenant
	 * t3's.
	 */
	static final FairnessKeyExtractor<String> TENANT = (item) -> List.of(item.substring(0, item.indexOf('/')));

	/**
	 * The system property that makes the instance's queue one of this many shards on a
	 * Redis Cluster whose node the URI names (unset: one Redis, one shard).
	 */
	static final String SHARDS = "workqueue.process.shards";

	private static final String RELEASE_OWN_CLAIM = "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
			+ "return redis.call('hdel', KEYS[1], ARGV[1]) end return 0";

	private WorkerProcess() {
	}

	public static void main(String[] args) throws Exception {
		String uri = args[0];
		String name = args[1];
		String holder = args[2];
		Duration lease = Duration.ofMillis(Long.parseLong(args[3]));
		int workers = Integer.parseInt(args[4]);
		boolean fair = args[5].equals("fair");
		long workMillis = (args.length > 6) ? Long.parseLong(args[6]) : -1;
		int shards = Integer.getInteger(SHARDS, 0);
		RedisClient client = (shards == 0) ? RedisClient.create(uri) : null;
		RedisClusterClient cluster = (shards == 0) ? null : RedisClusterClient.create(uri);
		RedisQueueBuilder builder = RedisQueue
			.builder((cluster == null) ? RedisQueueConnection.of(client) : RedisQueueConnection.of(cluster), name)
			.holder(holder)
			.leaseDuration(lease)
			.shards(Math.max(1, shards));
		RedisQueue<String> queue = (fair ? builder.fairness(TENANT) : builder).build(ItemCodec.strings());
		for (int i = 0; i < workers; i++) {
			RedisClusterCommands<String, String> redis = (cluster == null) ? client.connect().sync()
					: cluster.connect().sync();
			Thread worker = new Thread(() -> work(queue, redis, name, holder, workMillis), holder + "-worker-" + i);
			worker.start();
		}
		System.out.println("ready " + holder);
		System.out.flush();
	}

	private static void work(RedisQueue<String> queue, RedisClusterCommands<String, String> redis, String name,
			String holder, long workMillis) {
		try {
			while (true) {
				Optional<String> taken = queue.get();
				if (taken.isEmpty()) {
					return;
				}
				String item = taken.get();
				String token = Long.toString(queue.lease(item).orElseThrow().token());
				if (!redis.hsetnx(name + ":active", item, token)) {
					redis.rpush(name + ":violations",
							item + " taken with token " + token + " while " + redis.hget(name + ":active", item));
				}
				String version = redis.hget(name + ":versions", item);
				if (workMillis >= 0) {
					Thread.sleep(workMillis);
				}
				else if (ThreadLocalRandom.current().nextInt(4) == 0) {
					Thread.sleep(1);
				}
				redis.hset(name + ":seen", item, version);
				redis.hset(name + ":seenBy", item, holder);
				redis.eval(RELEASE_OWN_CLAIM, ScriptOutputType.INTEGER, new String[] { name + ":active" }, item, token);
				queue.done(item);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
