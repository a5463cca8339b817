package io.github.workqueue.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.TestPropertySource;

/**
 * Runs the application's in-memory queues on a {@link io.github.workqueue.core.FakeClock}
 * (a bean the test can inject, also reached through {@link QueueTester#advance}): delays,
 * retries and rate limits wait until the test moves the clock, so a test of a retrying
 * worker never sleeps. The same as setting {@code workqueue.test.fake-clock=true}. A
 * {@link io.github.workqueue.core.Clock} bean of the application's own wins.
 *
 * <p>
 * A queue on Redis reads time from Redis, not from this clock: its delays pass in real
 * time.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@TestPropertySource(properties = "workqueue.test.fake-clock=true")
public @interface FakeQueueClock {

}
