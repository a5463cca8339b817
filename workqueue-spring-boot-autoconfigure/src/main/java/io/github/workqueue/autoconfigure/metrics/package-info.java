@NullMarked
package io.github.workqueue.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
