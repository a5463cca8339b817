@NullMarked
package io.github.workqueue.core.internal;

import org.jspecify.annotations.NullMarked;
