@NullMarked
package io.github.workqueue.spring.internal;

import org.jspecify.annotations.NullMarked;
