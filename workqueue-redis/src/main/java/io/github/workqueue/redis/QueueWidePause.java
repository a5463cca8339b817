package io.github.workqueue.redis;

import java.time.Instant;

/**
 * A Redis queue paused on every instance ({@link RedisQueue#pauseEverywhere(String)}):
 * who paused it and since when.
 *
 * @param by who paused it, as they said
 * @param since when, on the pausing instance's clock
 */
public record QueueWidePause(String by, Instant since) {

}
