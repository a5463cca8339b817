package io.github.workqueue.autoconfigure.redis;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import redis.embedded.RedisServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import io.github.workqueue.autoconfigure.WorkQueueAutoConfiguration;
import io.github.workqueue.autoconfigure.WorkQueueRegistry;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesEndpoint;
import io.github.workqueue.autoconfigure.actuate.DeadLetterDescriptor;
import io.github.workqueue.autoconfigure.actuate.InstanceDescriptor;
import io.github.workqueue.autoconfigure.actuate.QueueDescriptor;
import io.github.workqueue.autoconfigure.actuate.SharedDescriptor;
import io.github.workqueue.autoconfigure.actuate.WorkQueuesHealthContributor;
import io.github.workqueue.autoconfigure.WorkQueueRedisAutoConfiguration;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.redis.CustomRateLimiter;
import io.github.workqueue.redis.ItemCodec;
import io.github.workqueue.redis.RedisQueue;
import io.github.workqueue.redis.RedisQueueConnection;
import io.github.workqueue.redis.TestRedis;
import io.github.workqueue.spring.InvalidWorkQueueConfigurationException;
import io.github.workqueue.spring.QueueWorkerContainer;
import io.github.workqueue.spring.QueueWorker;
import io.github.workqueue.spring.QueueWorkerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Queues whose backend is Redis, on the connection Spring Boot configures from
 * {@code spring.data.redis.*}, against a real Redis.
 */
class RedisBackendTest {

	private final String queue = TestRedis.uniqueName("orders");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				WorkQueueRedisAutoConfiguration.class, WorkQueueAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.url=" + TestRedis.uri(),
				"workqueue.queues." + this.queue + ".backend=redis",
				"workqueue.queues." + this.queue + ".lease-duration=5s");

	@Test
	void aQueueDeclaredOnRedisShouldBeARedisQueueSharedByTwoApplications() {
		this.runner.run((first) -> this.runner.run((second) -> {
			RateLimitingQueue<String> one = queue(first);
			RateLimitingQueue<String> two = queue(second);
			assertThat(one).isInstanceOf(RedisQueue.class);
			one.add("order-1");
			two.add("order-1");
			assertThat(two.len()).isEqualTo(1);
			assertThat(two.get(Duration.ofSeconds(5))).contains("order-1");
			assertThat(one.get(Duration.ZERO)).isEmpty();
			two.done("order-1");
		}));
	}

	@Test
	void theQueueShouldUseThePropertiesOfItsDeclaration() {
		this.runner
			.withPropertyValues("workqueue.queues." + this.queue + ".key-prefix=shop",
					"workqueue.queues." + this.queue + ".max-redeliveries=2")
			.run((context) -> {
				RedisQueue<String> redis = (RedisQueue<String>) this.<String>queue(context);
				redis.add("x");
				assertThat(redis.get(Duration.ofSeconds(5))).contains("x");
				assertThat(Duration.between(redis.inFlight().get(0).grantedAt(), redis.inFlight().get(0).expiresAt()))
					.isEqualTo(Duration.ofSeconds(5));
				RedisURI uri = new RedisURI(TestRedis.uri());
				assertThat(uri.keys("{shop:" + this.queue + "}:*")).isNotEmpty();
				redis.done("x");
			});
	}

	@Test
	void aQueueWithShardsShouldSpreadItsKeysOverThem() {
		this.runner.withPropertyValues("workqueue.queues." + this.queue + ".shards=3").run((context) -> {
			RedisQueue<String> redis = (RedisQueue<String>) this.<String>queue(context);
			for (int i = 0; i < 30; i++) {
				redis.add("item-" + i);
			}
			assertThat(redis.len()).isEqualTo(30);
			RedisURI uri = new RedisURI(TestRedis.uri());
			for (int shard = 0; shard < 3; shard++) {
				assertThat(uri.keys("{workqueue:" + this.queue + ":" + shard + "*}:queue")).as("shard " + shard)
					.hasSize(1);
			}
		});
	}

	@Test
	void aWorkerShouldProcessRecordsFromARedisQueue() {
		this.runner.withUserConfiguration(Workers.class)
			.withPropertyValues("workers.queue=" + this.queue)
			.run((context) -> {
				RateLimitingQueue<OrderKey> orders = queue(context);
				orders.add(new OrderKey("eu", 42));
				orders.add(new OrderKey("us", 7));
				Workers workers = context.getBean(Workers.class);
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(workers.seen).containsExactly(new OrderKey("eu", 42),
							new OrderKey("us", 7)));
			});
	}

	@Test
	void aRedisQueueWithoutRedisOnTheClassPathShouldFailStartupNamingThePropertyAndTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("io.github.workqueue.redis")).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(failure).isInstanceOf(InvalidWorkQueueConfigurationException.class)
				.hasMessageContaining("workqueue.queues." + this.queue + ".backend");
			assertThat(((InvalidWorkQueueConfigurationException) failure).getAction())
				.contains("io.github.workqueue:workqueue-redis", "spring-boot-starter-data-redis");
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			workqueue.defaults.lease-duration      | 10ms   | must be at least 100ms
			workqueue.queues.QUEUE.lease-duration  | 99ms   | must be at least 100ms
			workqueue.defaults.max-redeliveries    | -1     | must not be negative
			workqueue.queues.QUEUE.max-redeliveries | -2    | must not be negative
			workqueue.defaults.key-prefix          | '{app}' | must be non-blank and without braces
			workqueue.queues.QUEUE.key-prefix      | ' '    | must be non-blank and without braces
			workqueue.defaults.shards              | 0      | must be from 1 to 1024
			workqueue.queues.QUEUE.shards          | 2000   | must be from 1 to 1024
			workqueue.defaults.prefetch            | -1     | must be from 0 to 256
			workqueue.queues.QUEUE.prefetch        | 257    | must be from 0 to 256
			workqueue.defaults.replicas-ack        | -1     | must not be negative
			workqueue.queues.QUEUE.replicas-ack    | -1     | must not be negative
			workqueue.defaults.replicas-ack-timeout | 0s    | must be from 1ms to 1m
			workqueue.queues.QUEUE.replicas-ack-timeout | 2m | must be from 1ms to 1m
			""")
	void anInvalidRedisSettingShouldFailStartupNamingTheProperty(String property, String value, String problem) {
		String path = property.replace("QUEUE", this.queue);
		this.runner.withPropertyValues(path + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(InvalidWorkQueueConfigurationException.class)
				.hasMessageContaining("property '" + path + "'")
				.hasMessageContaining(problem);
		});
	}

	@Test
	void pauseAndResumeShouldKeepTheWorkersOfARedisQueueAlive() {
		this.runner.withUserConfiguration(Workers.class)
			.withPropertyValues("workers.queue=" + this.queue)
			.run((context) -> {
				RateLimitingQueue<OrderKey> orders = queue(context);
				Workers workers = context.getBean(Workers.class);
				QueueWorkerContainer container = context.getBean(QueueWorkerRegistry.class).getContainer(this.queue);
				orders.add(new OrderKey("eu", 1));
				await().atMost(Duration.ofSeconds(10)).until(() -> workers.seen.size() == 1);
				for (int i = 0; i < 5; i++) {
					container.pause();
					await().atMost(Duration.ofSeconds(5)).until(() -> workers.seen.size() == 1);
					container.resume();
				}
				container.pause();
				orders.add(new OrderKey("eu", 2));
				await().during(Duration.ofMillis(500))
					.atMost(Duration.ofSeconds(5))
					.until(() -> workers.seen.size() == 1 && container.liveWorkers() == container.workers());
				container.resume();
				await().atMost(Duration.ofSeconds(10)).until(() -> workers.seen.size() == 2);
				assertThat(container.liveWorkers()).isEqualTo(container.workers());
				WorkQueuesHealthContributor health = new WorkQueuesHealthContributor(
						context.getBean(QueueWorkerRegistry.class), context.getBean(WorkQueueRegistry.class), null);
				assertThat(queueHealth(health, this.queue).getStatus()).isEqualTo(Status.UP);
			});
	}

	@Test
	void pausingShouldGiveBackTheItemsTheQueueLeasedAheadOfTheWorkers() {
		this.runner.withUserConfiguration(BlockingWorkers.class)
			.withPropertyValues("workers.queue=" + this.queue, "workqueue.queues." + this.queue + ".prefetch=3",
					"workqueue.queues." + this.queue + ".adaptive-prefetch=false")
			.run((context) -> {
				RedisQueue<OrderKey> orders = (RedisQueue<OrderKey>) this.<OrderKey>queue(context);
				BlockingWorkers workers = context.getBean(BlockingWorkers.class);
				QueueWorkerContainer container = context.getBean(QueueWorkerRegistry.class).getContainer(this.queue);
				// Queued before the worker asks, so that its first ask finds them all.
				container.pause();
				for (int i = 1; i <= 5; i++) {
					orders.add(new OrderKey("eu", i));
				}
				container.resume();
				await().atMost(Duration.ofSeconds(10)).until(() -> workers.seen.size() == 1);
				assertThat(orders.stats().inFlight()).as("one processing, three leased ahead").isEqualTo(4);
				container.pause();
				assertThat(orders.stats().inFlight()).as("the three given back at pause").isEqualTo(1);
				assertThat(orders.len()).isEqualTo(4);
				assertThat(orders.stats().redeliveries()).isZero();
				workers.release.countDown();
				container.resume();
				await().atMost(Duration.ofSeconds(10)).until(() -> workers.seen.size() == 5);
				assertThat(workers.seen).extracting(OrderKey::id).containsExactly(1, 2, 3, 4, 5);
			});
	}

	@Test
	void aRateLimiterBeanOnARedisQueueShouldFailStartupNamingTheQueueTheBeanAndTheProperty() {
		this.runner.withBean("myLimiter", RateLimiter.class, CustomRateLimiter::new)
			.withPropertyValues("workqueue.queues." + this.queue + ".rate-limiter.type=bean",
					"workqueue.queues." + this.queue + ".rate-limiter.bean=myLimiter")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(failure).isInstanceOf(InvalidWorkQueueConfigurationException.class)
					.hasMessageContaining("property 'workqueue.queues." + this.queue + ".rate-limiter.bean'")
					.hasMessageContaining("myLimiter")
					.hasMessageContaining("queue '" + this.queue + "'")
					.hasMessageContaining("workqueue.queues." + this.queue + ".backend");
				assertThat(((InvalidWorkQueueConfigurationException) failure).getAction()).contains("rate-limiter.type",
						"to memory");
			});
	}

	@Test
	void anApplicationShouldStartWhileRedisIsDown() {
		this.runner.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + TestRedis.freePort())
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theEndpointShouldShowLeasesAndParkedItemsAndRequeueAParkedItem() {
		this.runner.withPropertyValues("workqueue.queues." + this.queue + ".item-type=" + OrderKey.class.getName())
			.run((context) -> {
				RateLimitingQueue<OrderKey> orders = queue(context);
				RedisQueue<String> raw = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.queue)
					.build(ItemCodec.strings());
				raw.add("not json");
				orders.add(new OrderKey("eu", 1));
				assertThat(orders.get(Duration.ofSeconds(5))).contains(new OrderKey("eu", 1));
				WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
						context.getBean(QueueWorkerRegistry.class), null);
				SharedDescriptor shared = endpoint.queue(this.queue).shared();
				assertThat(shared.inFlight()).isEqualTo(1);
				assertThat(endpoint.queue(this.queue).backend()).isEqualTo("redis");
				assertThat(shared.shards()).isEqualTo(1);
				assertThat(shared.instance()).isEqualTo(((RedisQueue<?>) orders).holder());
				assertThat(shared.leases()).singleElement().satisfies((lease) -> {
					assertThat(lease.item()).isEqualTo("{\"region\":\"eu\",\"id\":1}");
					assertThat(lease.expiresInSeconds()).isPositive();
					assertThat(lease.holder()).isEqualTo(shared.instance());
				});
				assertThat(shared.parked()).containsOnlyKeys("not json");
				assertThat(endpoint.changeWorkers(this.queue, "drop-parked", "not json").shared().parked()).isEmpty();
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> endpoint.changeWorkers(this.queue, "requeue-parked", "not json"))
					.withMessageContaining("is not parked");
				orders.done(new OrderKey("eu", 1));
				raw.shutDown();
			});
	}

	@Test
	void theEndpointShouldRemoveAKeyNamedAsStored() {
		this.runner.withPropertyValues("workqueue.queues." + this.queue + ".item-type=" + OrderKey.class.getName())
			.run((context) -> {
				RateLimitingQueue<OrderKey> orders = queue(context);
				orders.add(new OrderKey("eu", 1));
				orders.add(new OrderKey("eu", 2));
				WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
						context.getBean(QueueWorkerRegistry.class), null);
				assertThat(endpoint.changeWorkers(this.queue, "remove", "{\"region\":\"eu\",\"id\":1}").depth())
					.isEqualTo(1);
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> endpoint.changeWorkers(this.queue, "remove", "{\"region\":\"eu\",\"id\":1}"))
					.withMessageContaining("Nothing was removed");
				assertThat(orders.get(Duration.ofSeconds(5))).contains(new OrderKey("eu", 2));
				orders.done(new OrderKey("eu", 2));
			});
	}

	@Test
	void theInstancesListShouldSayWhichArePausedAndCountADeadOnesLeasesUntilTheyAreGone() {
		this.runner.run((context) -> {
			RateLimitingQueue<String> orders = queue(context);
			RedisClient deadClient = RedisClient.create(TestRedis.uri());
			RedisQueueConnection deadConnection = RedisQueueConnection.of(deadClient);
			RedisQueue<String> dead = RedisQueue.builder(deadConnection, this.queue)
				.holder("dead")
				.leaseDuration(Duration.ofSeconds(2))
				.prefetch(0)
				.build(ItemCodec.strings());
			try {
				WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
						context.getBean(QueueWorkerRegistry.class), null);
				((RedisQueue<String>) orders).workersPaused(true);
				orders.add("a");
				orders.add("b");
				assertThat(dead.get(Duration.ofSeconds(5))).contains("a");
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(instances(endpoint))
						.extracting(InstanceDescriptor::holder, InstanceDescriptor::paused,
								InstanceDescriptor::inFlight, InstanceDescriptor::notSeen)
						.containsExactlyInAnyOrder(tuple("dead", false, 1, false),
								tuple(((RedisQueue<?>) orders).holder(), true, 0, false)));
				// No heartbeat and no renewal from now on: as a killed instance.
				deadConnection.close();
				await().atMost(Duration.ofSeconds(15))
					.untilAsserted(() -> assertThat(instances(endpoint)).filteredOn((i) -> i.holder().equals("dead"))
						.singleElement()
						.satisfies((i) -> assertThat(i.notSeen()).isTrue()));
				assertThat(List.of(orders.get(Duration.ofSeconds(10)), orders.get(Duration.ofSeconds(10))))
					.as("b, and a delivered again once its lease expired")
					.containsExactlyInAnyOrder(Optional.of("a"), Optional.of("b"));
				assertThat(instances(endpoint)).filteredOn((i) -> i.holder().equals("dead"))
					.singleElement()
					.satisfies((i) -> assertThat(i.inFlight()).as("its heartbeat said 1; its lease is gone").isZero());
				orders.done("a");
				orders.done("b");
			}
			finally {
				dead.shutDown();
				deadClient.shutdown();
			}
		});
	}

	private List<InstanceDescriptor> instances(WorkQueuesEndpoint endpoint) {
		return endpoint.queue(this.queue).shared().instances();
	}

	@Test
	void whileRedisIsDownTheEndpointShouldAnswerWithinItsBoundWithTheLastFiguresMarkedStale() {
		int port = TestRedis.freePort();
		RedisServer server = TestRedis.startServer(port);
		try {
			this.runner.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + port).run((context) -> {
				RateLimitingQueue<String> orders = queue(context);
				orders.add("a");
				WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
						context.getBean(QueueWorkerRegistry.class), null);
				assertThat(endpoint.queue(this.queue).shared().unreachable()).isNull();
				server.stop();
				long before = System.currentTimeMillis();
				long start = System.nanoTime();
				QueueDescriptor described = endpoint.queues().queues().get(this.queue);
				Duration took = Duration.ofNanos(System.nanoTime() - start);
				// The bound is 2 s; some slack for a busy machine.
				assertThat(took).isLessThan(Duration.ofSeconds(4));
				assertThat(described.depth()).as("the last depth read").isEqualTo(1);
				assertThat(described.shared().unreachable()).isNotNull();
				assertThat(described.shared().unreachableSinceMillis()).isBetween(before - 1000,
						System.currentTimeMillis());
			});
		}
		finally {
			server.stop();
		}
	}

	@Test
	void theEndpointShouldPauseARedisQueueOnEveryInstanceAndSayWhoDid() {
		this.runner.run((context) -> {
			RateLimitingQueue<String> orders = queue(context);
			RedisQueue<String> other = RedisQueue.builder(RedisQueueConnection.of(TestRedis.client()), this.queue)
				.build(ItemCodec.strings());
			try {
				WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
						context.getBean(QueueWorkerRegistry.class), null);
				SharedDescriptor paused = endpoint
					.changeWorkers(this.queue, "pause-everywhere", null, null, null, null, null, () -> "alice")
					.shared();
				assertThat(paused.pausedEverywhere().by()).isEqualTo("alice through the workqueues endpoint");
				orders.add("x");
				assertThat(other.get(Duration.ofMillis(300))).as("another instance takes nothing").isEmpty();
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(endpoint.queue(this.queue).shared().instances())
						.as("every instance, as the list says it")
						.hasSizeGreaterThanOrEqualTo(2)
						.allMatch(InstanceDescriptor::paused));
				assertThat(endpoint.changeWorkers(this.queue, "resume-everywhere", null).shared().pausedEverywhere())
					.isNull();
				assertThat(other.get(Duration.ofSeconds(5))).contains("x");
				other.done("x");
			}
			finally {
				other.shutDown();
			}
		});
	}

	@Test
	void aBulkActionShouldActOnExactlyTheDeadLettersChosenOrOnNone() {
		this.runner.run((context) -> {
			RedisQueue<String> orders = (RedisQueue<String>) this.<String>queue(context);
			for (int i = 1; i <= 5; i++) {
				orders.deadLetter("poison-" + i, "gave up after max-retries", 4, null);
			}
			orders.deadLetter("other-1", "gave up after max-retries", 4, null);
			WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
					context.getBean(QueueWorkerRegistry.class), null);
			QueueDescriptor shown = endpoint.queue(this.queue, "POISON-");
			assertThat(shown.deadLetterCount()).isEqualTo(5);
			String newestShown = shown.deadLetters().get(0).item();
			orders.deadLetter("poison-6", "gave up after max-retries", 4, null);

			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.changeWorkers(this.queue, "drop-dead-letter", "*", "POISON-", 5, newestShown,
						null, null))
				.withMessageContaining("Nothing was changed")
				.withMessageContaining(
						"you confirmed 5 dead letter(s) of queue '" + this.queue + "' matching 'POISON-'")
				.withMessageContaining("6 match now, the newest poison-6");
			assertThat(endpoint.queue(this.queue).deadLetterCount()).as("nothing dropped").isEqualTo(7);

			assertThatExceptionOfType(InvalidEndpointRequestException.class).as("a count alone names no set")
				.isThrownBy(() -> endpoint.changeWorkers(this.queue, "drop-dead-letter", "*", "poison-", 6, null, null,
						null))
				.withMessageContaining("Missing \"newest\"");
			String newest = endpoint.queue(this.queue, "poison-").deadLetters().get(0).item();
			assertThat(endpoint.changeWorkers(this.queue, "drop-dead-letter", "*", "poison-", 6, newest, null, null)
				.deadLetterCount()).isOne();
			assertThat(endpoint.queue(this.queue).deadLetters()).extracting(DeadLetterDescriptor::item)
				.containsExactly("other-1");
		});
	}

	@Test
	void theEndpointShouldListSearchRequeueAndDropDeadLetters() {
		this.runner.run((context) -> {
			RedisQueue<String> orders = (RedisQueue<String>) this.<String>queue(context);
			orders.deadLetter("acme.1", "gave up after max-retries", 4, new IllegalStateException("boom"));
			orders.deadLetter("globex.2", "gave up after max-retries", 4, null);
			WorkQueuesEndpoint endpoint = new WorkQueuesEndpoint(context.getBean(WorkQueueRegistry.class),
					context.getBean(QueueWorkerRegistry.class), null);
			assertThat(endpoint.queue(this.queue).deadLetterCount()).isEqualTo(2);
			QueueDescriptor found = endpoint.queue(this.queue, "ACME");
			assertThat(found.deadLetterCount()).isEqualTo(1);
			assertThat(found.deadLetters()).singleElement().satisfies((letter) -> {
				assertThat(letter.item()).isEqualTo("acme.1");
				assertThat(letter.lastError()).isEqualTo("java.lang.IllegalStateException: boom");
				assertThat(letter.atMillis()).isNotNull();
			});
			assertThat(endpoint.changeWorkers(this.queue, "requeue-dead-letter", "acme.1").deadLetterCount())
				.isEqualTo(1);
			assertThat(orders.len()).isEqualTo(1);
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.changeWorkers(this.queue, "drop-dead-letter", "*"))
				.withMessageContaining("Missing \"count\"");
			assertThat(endpoint.changeWorkers(this.queue, "drop-dead-letter", "*", "", 1, "globex.2", null, null)
				.deadLetterCount()).isZero();
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.changeWorkers(this.queue, "drop-dead-letter", "acme.1"))
				.withMessageContaining("is not a dead letter");
		});
	}

	@Test
	void healthShouldBeDownWhileRedisCannotBeReached() {
		this.runner.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + TestRedis.freePort())
			.run((context) -> {
				WorkQueuesHealthContributor health = new WorkQueuesHealthContributor(
						context.getBean(QueueWorkerRegistry.class), context.getBean(WorkQueueRegistry.class), null);
				var result = queueHealth(health, this.queue);
				assertThat(result.getStatus()).isEqualTo(Status.DOWN);
				assertThat(result.getDetails().get("problem").toString()).contains("Redis cannot be reached");
			});
	}

	@Test
	void healthShouldBeDownWhileAQueuesSenderIsStalled() {
		this.runner.withBean("stalled", RateLimitingQueue.class, RedisBackendTest::stalledQueue).run((context) -> {
			WorkQueuesHealthContributor health = new WorkQueuesHealthContributor(
					context.getBean(QueueWorkerRegistry.class), context.getBean(WorkQueueRegistry.class), null);
			var result = queueHealth(health, "stalled");
			assertThat(result.getStatus()).isEqualTo(Status.DOWN);
			assertThat(result.getDetails().get("problem").toString()).contains("has made no progress for 12s");
		});
	}

	/**
	 * A Redis queue whose sender has been stuck for 12 s; the health check asks it
	 * nothing else.
	 */
	private static RateLimitingQueue<?> stalledQueue() {
		return (RateLimitingQueue<?>) Proxy.newProxyInstance(RedisBackendTest.class.getClassLoader(),
				new Class<?>[] { RedisQueue.class }, (proxy, method, args) -> switch (method.getName()) {
					case "stalledFor" -> Optional.of(Duration.ofSeconds(12));
					case "toString" -> "stalled queue";
					case "hashCode" -> System.identityHashCode(proxy);
					case "equals" -> proxy == args[0];
					default -> throw new UnsupportedOperationException(method.getName());
				});
	}

	@SuppressWarnings("unchecked")
	private <T> RateLimitingQueue<T> queue(org.springframework.context.ApplicationContext context) {
		return context.getBean(this.queue, RateLimitingQueue.class);
	}

	record OrderKey(String region, int id) {
	}

	@Configuration(proxyBeanMethods = false)
	static class Workers {

		final List<OrderKey> seen = new CopyOnWriteArrayList<>();

		@QueueWorker("${workers.queue}")
		void handle(OrderKey key) {
			this.seen.add(key);
		}

		@Bean
		static String marker() {
			return "workers";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BlockingWorkers {

		final List<OrderKey> seen = new CopyOnWriteArrayList<>();

		final CountDownLatch release = new CountDownLatch(1);

		@QueueWorker("${workers.queue}")
		void handle(OrderKey key) throws InterruptedException {
			this.seen.add(key);
			this.release.await();
		}

	}

	/** Reads keys straight from Redis. */
	private record RedisURI(String uri) {

		List<String> keys(String pattern) {
			io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(URI.create(this.uri).toString());
			try (var connection = client.connect()) {
				return connection.sync().keys(pattern);
			}
			finally {
				client.shutdown();
			}
		}

	}

	private static org.springframework.boot.health.contributor.Health queueHealth(WorkQueuesHealthContributor health,
			String queue) {
		return ((org.springframework.boot.health.contributor.HealthIndicator) health.getContributor(queue))
			.health(true);
	}

}
