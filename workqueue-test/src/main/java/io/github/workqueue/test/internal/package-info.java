/**
 * The test support's wiring: the auto-configuration that the test class path brings, the
 * recorder of outcomes and the embedded Redis's context customizer. Not an API.
 */
@NullMarked
package io.github.workqueue.test.internal;

import org.jspecify.annotations.NullMarked;
