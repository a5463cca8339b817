/**
 * A controller in the spirit of Kubernetes: a REST API records the desired state of
 * deployments and enqueues their keys; a worker reconciles each key against a flaky
 * downstream.
 */
@NullMarked
package io.github.workqueue.sample;

import org.jspecify.annotations.NullMarked;
