/**
 * What every instance of a queue shares on Redis, read and written outside the batches:
 * the keys and how items spread over shards ({@code Shards}, {@code QueueKeys}), the
 * operator's views (lengths, stats, parked and in-flight items: {@code QueueViews}), the
 * queue-wide pause, the dead letters, the instances' heartbeats, and the failure counts
 * and rate limiter that {@code addRateLimited} and {@code forget} share
 * ({@code SharedFailures}, {@code SharedRateLimiter}, {@code LimiterSpec}). Each class is
 * thread-safe and holds no lock: its state is Redis's, reached through
 * {@link io.github.workqueue.redis.internal.link}, the one package it uses. Public only
 * so that the queue's classes and the batches above it can call it; not an API.
 */
package io.github.workqueue.redis.internal.shared;
