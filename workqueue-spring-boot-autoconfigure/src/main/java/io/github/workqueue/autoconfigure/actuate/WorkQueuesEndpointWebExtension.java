package io.github.workqueue.autoconfigure.actuate;

import java.security.Principal;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code workqueues} endpoint over HTTP: a write to an unknown queue answers 404 like
 * a read, and a bad request answers 400 with a body that says what was wrong and which
 * actions exist.
 */
@EndpointWebExtension(endpoint = WorkQueuesEndpoint.class)
public class WorkQueuesEndpointWebExtension {

	private static final List<String> ACTIONS = List.of("pause", "resume", "pause-everywhere", "resume-everywhere",
			"requeue-dead-letter", "drop-dead-letter", "requeue-parked", "drop-parked");

	private final WorkQueuesEndpoint delegate;

	public WorkQueuesEndpointWebExtension(WorkQueuesEndpoint delegate) {
		this.delegate = delegate;
	}

	@WriteOperation
	public WebEndpointResponse<Object> changeWorkers(@Selector String name, @Nullable String action,
			@Nullable String item, @Nullable Principal principal) {
		if (this.delegate.queue(name) == null) {
			return new WebEndpointResponse<>(
					new ErrorDescriptor("No queue named '" + name + "'",
							List.copyOf(this.delegate.queues().queues().keySet()), ACTIONS),
					WebEndpointResponse.STATUS_NOT_FOUND);
		}
		if (action == null) {
			return badRequest("Missing \"action\": send {\"action\": \"pause\"} or {\"action\": \"resume\"}");
		}
		try {
			return new WebEndpointResponse<>(this.delegate.changeWorkers(name, action, item, principal));
		}
		catch (InvalidEndpointRequestException ex) {
			return badRequest(ex.getMessage());
		}
	}

	private WebEndpointResponse<Object> badRequest(@Nullable String message) {
		return new WebEndpointResponse<>(new ErrorDescriptor(String.valueOf(message),
				List.copyOf(this.delegate.queues().queues().keySet()), ACTIONS),
				WebEndpointResponse.STATUS_BAD_REQUEST);
	}

	/**
	 * What was wrong with a request.
	 *
	 * @param error what was wrong
	 * @param queues the queues that exist
	 * @param actions the actions a write takes
	 */
	public record ErrorDescriptor(String error, List<String> queues, List<String> actions) {

	}

}
