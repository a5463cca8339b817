/**
 * The batches: what one instance's threads ask of one queue (adds, dones, and leases for
 * the threads waiting in {@code get}) goes to every shard in one run of {@code batch.lua}
 * per round trip. {@code Batcher} is the callers' side (adds and dones) and
 * {@code LeaseTakes} the takers' (waiting for a lease, the leases taken ahead);
 * {@code BatchState} owns the one monitor that guards what the callers, the sender and
 * the replies share ({@code PendingRequests}, {@code LeaseAsks},
 * {@code LeaseAheadBuffer}, {@code SentParts}, {@code SenderWakes}) and lists it with its
 * invariants; {@code BatchPlanner} decides what the next batch carries;
 * {@code BatchSender} is the one thread that sends and {@code BatchReplies} reads what
 * came back; {@code LeaseReturns} gives leases back. It uses
 * {@link io.github.workqueue.redis.internal.shared} (the keys and shards) and
 * {@link io.github.workqueue.redis.internal.link} (the wire), and never the queue's
 * package above it. The few public classes and methods ({@code Batcher},
 * {@code LeaseTakes}, {@code Grant}, {@code Renewable} and the like) are public only so
 * that the queue one package up can call them; not an API.
 */
package io.github.workqueue.redis.internal.batch;
