@NullMarked
package io.github.workqueue.autoconfigure.worker.internal;

import org.jspecify.annotations.NullMarked;
