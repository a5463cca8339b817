package io.github.workqueue.autoconfigure.dashboard;

import org.jspecify.annotations.Nullable;

/**
 * Where the dashboard is served: {@code workqueue.dashboard.path} as given, or
 * {@code workqueues-dashboard} under the Actuator base path.
 */
final class DashboardPath {

	static final String DEFAULT_NAME = "workqueues-dashboard";

	private DashboardPath() {
	}

	/**
	 * Resolves the dashboard's path.
	 * @param configured {@code workqueue.dashboard.path}, or {@code null}
	 * @param actuatorBasePath {@code management.endpoints.web.base-path}
	 * @return a path that starts with a slash and does not end with one
	 * @throws IllegalArgumentException if the configured path is {@code /}, has a
	 * wildcard or a template variable
	 */
	static String resolve(@Nullable String configured, String actuatorBasePath) {
		if (configured == null || configured.isBlank()) {
			return trim(actuatorBasePath) + "/" + DEFAULT_NAME;
		}
		String path = trim(configured.strip());
		if (path.isEmpty() || path.contains("*") || path.contains("{") || path.contains("?")) {
			throw new IllegalArgumentException("workqueue.dashboard.path must be a plain path below the root, such as "
					+ "/workqueues-dashboard, was '" + configured + "'");
		}
		return path;
	}

	private static String trim(String path) {
		String trimmed = path.startsWith("/") ? path : "/" + path;
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return trimmed;
	}

}
