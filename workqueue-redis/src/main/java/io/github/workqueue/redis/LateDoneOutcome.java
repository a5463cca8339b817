package io.github.workqueue.redis;

/**
 * The final outcome of a {@code done} that had returned {@link DoneResult#NO_ANSWER}:
 * what Redis answered when it did ({@link DoneResult#ACCEPTED} or
 * {@link DoneResult#REJECTED}), or {@link DoneResult#NO_ANSWER} if it never answered
 * while it could still tell. Each such done has exactly one, given to the queue's
 * {@link RedisQueueBuilder#lateDoneListener late-done listener} (published as an
 * application event by the Spring Boot starter) and to its lease's
 * {@link Lease#outcome()}.
 *
 * @param queue the queue's name
 * @param item the item the done was for
 * @param lease the lease the done ended, or tried to
 * @param result the final outcome
 */
public record LateDoneOutcome(String queue, Object item, Lease lease, DoneResult result) {

}
