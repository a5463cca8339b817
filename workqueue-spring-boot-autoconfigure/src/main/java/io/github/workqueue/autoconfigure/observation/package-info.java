@NullMarked
package io.github.workqueue.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
