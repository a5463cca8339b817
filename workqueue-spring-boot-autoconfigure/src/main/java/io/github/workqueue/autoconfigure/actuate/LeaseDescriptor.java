package io.github.workqueue.autoconfigure.actuate;

/**
 * An item under a lease.
 *
 * @param item the item as stored
 * @param holder the instance holding it
 * @param leaseAgeSeconds how long it has been held, on Redis's clock
 * @param expiresInSeconds how long until the lease expires unless renewed
 */
public record LeaseDescriptor(String item, String holder, double leaseAgeSeconds, double expiresInSeconds) {

}
