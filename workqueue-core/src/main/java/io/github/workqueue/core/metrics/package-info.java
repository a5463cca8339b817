@NullMarked
package io.github.workqueue.core.metrics;

import org.jspecify.annotations.NullMarked;
