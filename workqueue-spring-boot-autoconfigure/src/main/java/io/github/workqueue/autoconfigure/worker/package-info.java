@NullMarked
package io.github.workqueue.autoconfigure.worker;

import org.jspecify.annotations.NullMarked;
