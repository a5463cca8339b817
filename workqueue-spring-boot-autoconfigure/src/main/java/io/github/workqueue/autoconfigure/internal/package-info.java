@NullMarked
package io.github.workqueue.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
