package io.github.workqueue.autoconfigure.actuate;

/**
 * An item this instance's workers are processing.
 *
 * @param item the item, as text
 * @param ageSeconds how long it has been processing, on the container's clock
 */
public record ProcessingDescriptor(String item, double ageSeconds) {

}
