package io.github.workqueue.autoconfigure.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.HtmlUtils;

/**
 * Serves the dashboard's three static files from the jar
 * ({@code META-INF/workqueue-dashboard/}). The page holds no data: it reads and changes
 * the queues only through the {@code workqueues} endpoint, whose URL (with the servlet's
 * context path) it is given in its {@code data-endpoint} attribute, so it is under the
 * endpoint's exposure, access rules and security.
 *
 * <p>
 * <b>Concurrency.</b> Immutable once built; the files are read once.
 */
final class DashboardPage {

	private static final String LOCATION = "META-INF/workqueue-dashboard/";

	private static final MediaType JAVASCRIPT = MediaType.parseMediaType("text/javascript;charset=UTF-8");

	private static final Map<String, MediaType> ASSETS = Map.of("format.js", JAVASCRIPT, "charts.js", JAVASCRIPT,
			"endpoint.js", JAVASCRIPT, "lists.js", JAVASCRIPT, "dashboard.js", JAVASCRIPT, "dashboard.css",
			MediaType.parseMediaType("text/css;charset=UTF-8"));

	private static final String POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'; "
			+ "script-src 'self'; connect-src 'self'; frame-ancestors 'self'";

	private final String path;

	private final String endpointPath;

	private final Duration refresh;

	private final Duration history;

	private final boolean writes;

	private final @Nullable Integer deadLetterThreshold;

	private final Duration waitThreshold;

	private final String template;

	private final Map<String, String> assets;

	/**
	 * Creates the page.
	 * @param path where the page is, from the servlet's context path, without a trailing
	 * slash
	 * @param endpointPath where the {@code workqueues} endpoint is, from the servlet's
	 * context path
	 * @param refresh how often the page refreshes
	 * @param history how far back the charts reach
	 * @param writes whether the endpoint's access allows writes: without, the page shows
	 * no write buttons
	 * @param deadLetterThreshold how many dead letters a queue keeps before the page
	 * marks it as in trouble, or {@code null} for no bound
	 * @param waitThreshold how long ready items may wait before the page marks the queue
	 * as in trouble
	 */
	DashboardPage(String path, String endpointPath, Duration refresh, Duration history, boolean writes,
			@Nullable Integer deadLetterThreshold, Duration waitThreshold) {
		this.path = path;
		this.endpointPath = endpointPath;
		this.refresh = refresh;
		this.history = history;
		this.writes = writes;
		this.deadLetterThreshold = deadLetterThreshold;
		this.waitThreshold = waitThreshold;
		this.template = read("index.html");
		this.assets = ASSETS.keySet()
			.stream()
			.collect(Collectors.toUnmodifiableMap((name) -> name, DashboardPage::read));
	}

	RouterFunction<ServerResponse> routes() {
		return RouterFunctions.route()
			.GET(this.path, this::redirectToSlash)
			.GET(this.path + "/", this::index)
			.GET(this.path + "/index.html", this::index)
			.GET(this.path + "/{asset}", this::asset)
			.build();
	}

	private ServerResponse redirectToSlash(ServerRequest request) {
		String last = this.path.substring(this.path.lastIndexOf('/') + 1);
		// Relative, so that it holds behind a proxy that rewrites the host or the prefix.
		return ServerResponse.status(302).location(URI.create(last + "/")).build();
	}

	private ServerResponse index(ServerRequest request) {
		String endpoint = request.requestPath().contextPath().value() + this.endpointPath;
		String html = this.template.replace("@endpoint@", HtmlUtils.htmlEscape(endpoint))
			.replace("@refreshMillis@", Long.toString(this.refresh.toMillis()))
			.replace("@historyMillis@", Long.toString(this.history.toMillis()))
			.replace("@writes@", Boolean.toString(this.writes))
			.replace("@deadLetterThreshold@",
					(this.deadLetterThreshold != null) ? this.deadLetterThreshold.toString() : "")
			.replace("@waitThresholdMillis@", Long.toString(this.waitThreshold.toMillis()));
		return ServerResponse.ok()
			.contentType(MediaType.parseMediaType("text/html;charset=UTF-8"))
			.cacheControl(CacheControl.noCache())
			.header("Content-Security-Policy", POLICY)
			.header("X-Content-Type-Options", "nosniff")
			.body(html);
	}

	private ServerResponse asset(ServerRequest request) {
		String name = request.pathVariable("asset");
		MediaType type = ASSETS.get(name);
		if (type == null) {
			return ServerResponse.notFound().build();
		}
		return ServerResponse.ok()
			.contentType(type)
			.cacheControl(CacheControl.noCache())
			.header("X-Content-Type-Options", "nosniff")
			.body(this.assets.get(name));
	}

	private static String read(String name) {
		try (InputStream in = new ClassPathResource(LOCATION + name, DashboardPage.class.getClassLoader())
			.getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The dashboard's " + name + " is missing from the jar", ex);
		}
	}

}
