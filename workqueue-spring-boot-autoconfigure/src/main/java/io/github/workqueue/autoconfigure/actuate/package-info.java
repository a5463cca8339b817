@NullMarked
package io.github.workqueue.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
