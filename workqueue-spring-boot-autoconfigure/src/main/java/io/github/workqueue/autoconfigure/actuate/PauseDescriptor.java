package io.github.workqueue.autoconfigure.actuate;

/**
 * A Redis queue paused on every instance.
 *
 * @param by who paused it
 * @param sinceMillis since when, in milliseconds since the epoch
 */
public record PauseDescriptor(String by, long sinceMillis) {

}
