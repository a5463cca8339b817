package io.github.workqueue.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.workqueue.autoconfigure.internal.WorkQueueConfigurationFailureAnalyzer;
import io.github.workqueue.core.Clock;
import io.github.workqueue.core.FairnessKeyExtractor;
import io.github.workqueue.core.FakeClock;
import io.github.workqueue.core.RateLimitingQueue;
import io.github.workqueue.core.WorkQueue;
import io.github.workqueue.core.ratelimit.BucketRateLimiter;
import io.github.workqueue.core.ratelimit.ExponentialFailureRateLimiter;
import io.github.workqueue.core.ratelimit.FastSlowRateLimiter;
import io.github.workqueue.core.ratelimit.MaxOfRateLimiter;
import io.github.workqueue.core.ratelimit.RateLimiter;
import io.github.workqueue.core.ratelimit.WithMaxWaitRateLimiter;

import static org.assertj.core.api.Assertions.assertThat;

class WorkQueueAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(WorkQueueAutoConfiguration.class))
		.withBean(Clock.class, FakeClock::new);

	@Test
	void queuesWhenDeclaredShouldBeBeansNamedAfterTheirKeys() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=4", "workqueue.queues.payments.workers=1")
			.run((context) -> {
				assertThat(context).hasBean("orders").hasBean("payments");
				assertThat(context.getBean("orders")).isInstanceOf(RateLimitingQueue.class);
				assertThat(context.getBean("orders", RateLimitingQueue.class).name()).isEqualTo("orders");
				assertThat(context.getBean(WorkQueueRegistry.class).getQueues()).containsOnlyKeys("orders", "payments");
			});
	}

	@Test
	void queueBeanShouldBeInjectableWithItsItemTypeByName() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=1")
			.withUserConfiguration(InjectingConfiguration.class)
			.run((context) -> assertThat(context.getBean(InjectingConfiguration.class).orders.name())
				.isEqualTo("orders"));
	}

	@Test
	void noQueuesWhenNoneDeclaredShouldStillProvideTheRegistry() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(WorkQueueRegistry.class);
			assertThat(context.getBean(WorkQueueRegistry.class).getQueues()).isEmpty();
		});
	}

	@Test
	void defaultLimiterShouldBeClientGoControllerLimiter() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=1").run((context) -> {
			RateLimiter<Object> limiter = limiter(context, "orders");
			assertThat(limiter).isInstanceOf(MaxOfRateLimiter.class);
			assertThat(((MaxOfRateLimiter<Object>) limiter).limiters())
				.hasExactlyElementsOfTypes(ExponentialFailureRateLimiter.class, BucketRateLimiter.class);
			assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(5));
			assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(10));
			assertThat(limiter)
				.hasToString("max-of[exponential(base=PT0.005S, max=PT16M40S), bucket(qps=10.0, burst=100)]");
		});
	}

	@Test
	void exponentialLimiterShouldUseItsDelays() {
		this.runner
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=exponential",
					"workqueue.queues.orders.rate-limiter.base-delay=10ms",
					"workqueue.queues.orders.rate-limiter.max-delay=15ms")
			.run((context) -> {
				RateLimiter<Object> limiter = limiter(context, "orders");
				assertThat(limiter).isInstanceOf(ExponentialFailureRateLimiter.class);
				assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(10));
				assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(15));
			});
	}

	@Test
	void fastSlowLimiterShouldUseItsSettings() {
		this.runner
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=fast-slow",
					"workqueue.queues.orders.rate-limiter.fast-delay=1ms",
					"workqueue.queues.orders.rate-limiter.slow-delay=1m",
					"workqueue.queues.orders.rate-limiter.max-fast-attempts=1")
			.run((context) -> {
				RateLimiter<Object> limiter = limiter(context, "orders");
				assertThat(limiter).isInstanceOf(FastSlowRateLimiter.class);
				assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(1));
				assertThat(limiter.when("x")).isEqualTo(Duration.ofMinutes(1));
			});
	}

	@Test
	void bucketLimiterShouldUseTheQueueClock() {
		this.runner
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=bucket",
					"workqueue.queues.orders.rate-limiter.qps=2", "workqueue.queues.orders.rate-limiter.burst=1")
			.run((context) -> {
				RateLimiter<Object> limiter = limiter(context, "orders");
				assertThat(limiter).isInstanceOf(BucketRateLimiter.class);
				assertThat(limiter.when("a")).isZero();
				assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(500));
				((FakeClock) context.getBean(Clock.class)).step(Duration.ofSeconds(1));
				assertThat(limiter.when("c")).isZero();
			});
	}

	@Test
	void maxOfLimiterShouldBuildItsNestedLimiters() {
		this.runner
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=max-of",
					"workqueue.queues.orders.rate-limiter.limiters[0].type=exponential",
					"workqueue.queues.orders.rate-limiter.limiters[0].base-delay=10ms",
					"workqueue.queues.orders.rate-limiter.limiters[0].max-delay=60s",
					"workqueue.queues.orders.rate-limiter.limiters[1].type=bucket",
					"workqueue.queues.orders.rate-limiter.limiters[1].qps=50",
					"workqueue.queues.orders.rate-limiter.limiters[1].burst=200")
			.run((context) -> assertThat(limiter(context, "orders"))
				.hasToString("max-of[exponential(base=PT0.01S, max=PT1M), bucket(qps=50.0, burst=200)]"));
	}

	@Test
	void maxWaitShouldCapAnyLimiter() {
		this.runner
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=exponential",
					"workqueue.queues.orders.rate-limiter.base-delay=1m",
					"workqueue.queues.orders.rate-limiter.max-delay=1h",
					"workqueue.queues.orders.rate-limiter.max-wait=30s")
			.run((context) -> {
				RateLimiter<Object> limiter = limiter(context, "orders");
				assertThat(limiter).isInstanceOf(WithMaxWaitRateLimiter.class);
				assertThat(limiter.when("x")).isEqualTo(Duration.ofSeconds(30));
			});
	}

	@Test
	void beanLimiterShouldUseTheNamedBean() {
		this.runner.withUserConfiguration(LimiterBeanConfiguration.class)
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=bean",
					"workqueue.queues.orders.rate-limiter.bean=myLimiter")
			.run((context) -> assertThat(limiter(context, "orders")).isSameAs(context.getBean("myLimiter")));
	}

	@Test
	void queuesShouldInheritEachUnsetValueFromTheDefaults() {
		this.runner
			.withPropertyValues("workqueue.defaults.rate-limiter.type=exponential",
					"workqueue.defaults.rate-limiter.base-delay=7ms", "workqueue.defaults.rate-limiter.max-delay=1s",
					"workqueue.queues.orders.rate-limiter.max-delay=20ms", "workqueue.queues.payments.workers=2")
			.run((context) -> {
				RateLimiter<Object> orders = limiter(context, "orders");
				assertThat(orders).hasToString("exponential(base=PT0.007S, max=PT0.02S)");
				assertThat(limiter(context, "payments")).hasToString("exponential(base=PT0.007S, max=PT1S)");
			});
	}

	@Test
	void customizersShouldAdjustEveryQueue() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=1", "workqueue.queues.payments.workers=1")
			.withBean(WorkQueueBuilderCustomizer.class,
					() -> (name,
							builder) -> builder.rateLimiter(new ExponentialFailureRateLimiter<>(
									Duration.ofSeconds(name.length()), Duration.ofHours(1))))
			.run((context) -> {
				assertThat(limiter(context, "orders").when("x")).isEqualTo(Duration.ofSeconds(6));
				assertThat(limiter(context, "payments").when("x")).isEqualTo(Duration.ofSeconds(8));
			});
	}

	@Test
	void userBeanOfTheSameNameShouldWin() {
		this.runner.withUserConfiguration(UserQueueConfiguration.class)
			.withPropertyValues("workqueue.queues.orders.workers=3")
			.run((context) -> {
				assertThat(context.getBean("orders")).isSameAs(UserQueueConfiguration.QUEUE);
				assertThat(context.getBean(WorkQueueRegistry.class).getQueue("orders"))
					.isSameAs(UserQueueConfiguration.QUEUE);
			});
	}

	@Test
	void queueBeansShouldBeShutDownWithTheContext() {
		this.runner.withPropertyValues("workqueue.queues.orders.workers=1").run((context) -> {
			RateLimitingQueue<?> orders = context.getBean("orders", RateLimitingQueue.class);
			context.close();
			assertThat(orders.isShuttingDown()).isTrue();
		});
	}

	@Test
	void zeroQpsShouldFailWithThePropertyAndTheFix() {
		assertFailure("workqueue.queues.orders.rate-limiter.qps=0",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.qps' (value: 0.0) "
						+ "must be greater than 0.",
				"Set it to the number of retries allowed per second overall, for example 10.");
	}

	@Test
	void negativeQpsInTheDefaultsShouldNameTheDefaultsProperty() {
		this.runner.withPropertyValues("workqueue.defaults.rate-limiter.qps=-1", "workqueue.queues.orders.workers=1")
			.run((context) -> assertThat(analyze(context).getDescription())
				.isEqualTo("Invalid workqueue configuration: property 'workqueue.defaults.rate-limiter.qps' "
						+ "(value: -1.0) must be greater than 0."));
	}

	@Test
	void burstBelowOneShouldFail() {
		assertFailure("workqueue.queues.orders.rate-limiter.burst=0",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.burst' (value: 0) "
						+ "must be at least 1.",
				"Set it to the bucket size, 1 or more, for example 100.");
	}

	@Test
	void baseDelayAboveMaxDelayShouldFail() {
		assertFailure("workqueue.queues.orders.rate-limiter.base-delay=2s",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.base-delay' "
						+ "(value: PT2S) is greater than max-delay (PT1S).",
				"Set workqueue.queues.orders.rate-limiter.base-delay to at most max-delay, or raise max-delay.",
				"workqueue.queues.orders.rate-limiter.max-delay=1s");
	}

	@Test
	void unknownLimiterTypeShouldFailListingTheKnownTypes() {
		assertFailure("workqueue.queues.orders.rate-limiter.type=leaky",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.type' (value: leaky) "
						+ "is not one of its values.",
				"Set workqueue.queues.orders.rate-limiter.type to one of: controller, exponential, fast-slow, bucket, "
						+ "max-of, bean.");
	}

	@Test
	void unknownBackendShouldFailListingTheBackends() {
		assertFailure("workqueue.defaults.backend=mongo",
				"Invalid workqueue configuration: property 'workqueue.defaults.backend' (value: mongo) "
						+ "is not one of its values.",
				"Set workqueue.defaults.backend to one of: memory, redis.");
	}

	@Test
	void limiterTypesShouldBindInAnyCaseWithDashesOrUnderscores() {
		this.runner
			.withPropertyValues("workqueue.queues.a.rate-limiter.type=FAST_SLOW",
					"workqueue.queues.b.rate-limiter.type=max-of",
					"workqueue.queues.b.rate-limiter.limiters[0].type=Bucket")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				WorkQueueProperties properties = context.getBean(WorkQueueProperties.class);
				assertThat(properties.getQueues().get("a").getRateLimiter().getType())
					.isEqualTo(RateLimiterType.FAST_SLOW);
				assertThat(properties.getQueues().get("b").getRateLimiter().getLimiters().get(0).getType())
					.isEqualTo(RateLimiterType.BUCKET);
			});
	}

	@Test
	void missingLimiterBeanShouldFail() {
		assertFailure("workqueue.queues.orders.rate-limiter.type=bean",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.bean' "
						+ "(value: nope) names no bean in the application context.",
				"Define a RateLimiter bean named 'nope', or set workqueue.queues.orders.rate-limiter.bean to the name "
						+ "of an existing one.",
				"workqueue.queues.orders.rate-limiter.bean=nope");
	}

	@Test
	void limiterBeanOfTheWrongTypeShouldFail() {
		this.runner.withBean("notALimiter", String.class, () -> "hello")
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=bean",
					"workqueue.queues.orders.rate-limiter.bean=notALimiter")
			.run((context) -> assertThat(analyze(context).getDescription())
				.isEqualTo("Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.bean' "
						+ "(value: notALimiter) names a bean of type java.lang.String, not a RateLimiter."));
	}

	@Test
	void defaultPriorityAndFairnessShouldConfigureTheQueue() {
		this.runner.withUserConfiguration(FairnessConfiguration.class)
			.withPropertyValues("workqueue.queues.orders.default-priority=3",
					"workqueue.queues.orders.item-type=java.lang.String", "workqueue.defaults.fairness=tenantKeys")
			.run((context) -> {
				@SuppressWarnings("unchecked")
				RateLimitingQueue<String> orders = context.getBean("orders", RateLimitingQueue.class);
				assertThat(orders.defaultPriority()).isEqualTo(3);
				assertThat(orders.fairnessKeysOf("acme/42")).containsExactly("acme");
				orders.add("acme/1");
				orders.add("acme/2");
				orders.add("other/1");
				assertThat(orders.lenByPriority()).containsExactly(java.util.Map.entry(3, 3));
				assertThat(orders.get(Duration.ZERO)).contains("acme/1");
				assertThat(orders.get(Duration.ZERO)).as("round-robin over tenants").contains("other/1");
			});
	}

	@Test
	void fairnessNamingNoBeanShouldFail() {
		assertFailure("workqueue.queues.orders.fairness=byTenant",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.fairness' (value: byTenant) "
						+ "names no bean.",
				"Declare a bean named 'byTenant' that implements io.github.workqueue.core.FairnessKeyExtractor for "
						+ "the queue's item type, or remove the property.");
	}

	@Test
	void fairnessOfAnotherItemTypeShouldFail() {
		this.runner.withUserConfiguration(FairnessConfiguration.class)
			.withPropertyValues("workqueue.queues.orders.fairness=numberKeys",
					"workqueue.queues.orders.item-type=java.lang.String")
			.run((context) -> assertThat(analyze(context).getDescription())
				.isEqualTo("Invalid workqueue configuration: property 'workqueue.queues.orders.fairness' (value: "
						+ "numberKeys) is a FairnessKeyExtractor<java.lang.Integer>, but queue 'orders' holds items "
						+ "of type java.lang.String."));
	}

	@Test
	void fairnessNamingAnotherKindOfBeanShouldFail() {
		this.runner.withBean("notAnExtractor", String.class, () -> "hello")
			.withPropertyValues("workqueue.queues.orders.fairness=notAnExtractor")
			.run((context) -> assertThat(analyze(context).getDescription())
				.isEqualTo("Invalid workqueue configuration: property 'workqueue.queues.orders.fairness' (value: "
						+ "notAnExtractor) names a bean of type java.lang.String, not a FairnessKeyExtractor."));
	}

	@Configuration(proxyBeanMethods = false)
	static class FairnessConfiguration {

		@Bean
		FairnessKeyExtractor<String> tenantKeys() {
			return (item) -> java.util.List.of(item.substring(0, item.indexOf('/')));
		}

		@Bean
		FairnessKeyExtractor<Integer> numberKeys() {
			return (item) -> java.util.List.of(String.valueOf(item % 10));
		}

	}

	@Test
	void workersBelowOneShouldFail() {
		assertFailure("workqueue.queues.orders.workers=0",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.workers' (value: 0) "
						+ "must be at least 1.",
				"Set it to the number of worker threads the queue should have, 1 or more.");
	}

	@Test
	void maxOfWithoutLimitersShouldFail() {
		assertFailure("workqueue.queues.orders.rate-limiter.type=max-of",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.rate-limiter.limiters' "
						+ "(value: []) is empty, but a max-of limiter needs at least one limiter.",
				"Add limiters under workqueue.queues.orders.rate-limiter.limiters, each with a type, for example "
						+ "{ type: exponential, base-delay: 10ms, max-delay: 60s }.");
	}

	@Test
	void nestedLimiterErrorsShouldNameTheirIndex() {
		this.runner
			.withPropertyValues("workqueue.queues.orders.rate-limiter.type=max-of",
					"workqueue.queues.orders.rate-limiter.limiters[0].type=exponential",
					"workqueue.queues.orders.rate-limiter.limiters[1].type=bucket",
					"workqueue.queues.orders.rate-limiter.limiters[1].burst=0")
			.run((context) -> assertThat(analyze(context).getDescription()).contains(
					"property 'workqueue.queues.orders.rate-limiter.limiters[1].burst' (value: 0) must be at least 1"));
	}

	@Test
	void negativeMaxRetriesShouldFail() {
		assertFailure("workqueue.queues.orders.max-retries=-1",
				"Invalid workqueue configuration: property 'workqueue.queues.orders.max-retries' (value: -1) "
						+ "must not be negative.",
				"Set it to 0 or more, or remove it to retry forever with the rate limiter's backoff.");
	}

	private void assertFailure(String property, String description, String action, String... more) {
		this.runner.withPropertyValues(property).withPropertyValues(more).run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).isEqualTo(description);
			assertThat(analysis.getAction()).isEqualTo(action);
		});
	}

	static FailureAnalysis analyze(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new WorkQueueConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
		return analysis;
	}

	@SuppressWarnings("unchecked")
	private static RateLimiter<Object> limiter(AssertableApplicationContext context, String queue) {
		return (RateLimiter<Object>) context.getBean(queue, RateLimitingQueue.class).rateLimiter();
	}

	@Configuration(proxyBeanMethods = false)
	static class InjectingConfiguration {

		final RateLimitingQueue<String> orders;

		InjectingConfiguration(RateLimitingQueue<String> orders) {
			this.orders = orders;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LimiterBeanConfiguration {

		@Bean
		RateLimiter<Object> myLimiter() {
			return new ExponentialFailureRateLimiter<>(Duration.ofSeconds(1), Duration.ofSeconds(2));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserQueueConfiguration {

		static final RateLimitingQueue<Object> QUEUE = WorkQueue.builder().name("orders").buildRateLimiting();

		@Bean
		RateLimitingQueue<Object> orders() {
			return QUEUE;
		}

	}

}
