@NullMarked
package io.github.workqueue.core.backoff;

import org.jspecify.annotations.NullMarked;
