@NullMarked
package io.github.workqueue.spring;

import org.jspecify.annotations.NullMarked;
