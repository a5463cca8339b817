@NullMarked
package io.github.workqueue.core;

import org.jspecify.annotations.NullMarked;
