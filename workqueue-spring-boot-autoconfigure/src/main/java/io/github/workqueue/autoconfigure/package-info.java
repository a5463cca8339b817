@NullMarked
package io.github.workqueue.autoconfigure;

import org.jspecify.annotations.NullMarked;
