@NullMarked
package io.github.workqueue.core.ratelimit;

import org.jspecify.annotations.NullMarked;
