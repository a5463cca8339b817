package io.github.workqueue.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the test's queues on Redis: a Redis server (the embedded binary of
 * {@code org.signal:embedded-redis}) is started once for the test JVM on a free port, and
 * the test's application context gets {@code spring.data.redis.url} pointing at it,
 * {@code workqueue.defaults.backend=redis}, and a key prefix of its own
 * ({@code workqueue.defaults.key-prefix}), so that contexts never see each other's keys.
 * The same test runs on memory without this annotation.
 *
 * <p>
 * The application needs Spring Boot's Redis support on its class path
 * ({@code spring-boot-starter-data-redis}), as it does to run on Redis at all.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmbeddedRedisQueues {

}
