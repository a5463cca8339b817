package io.github.workqueue.autoconfigure.actuate;

import java.security.Principal;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code workqueues} endpoint over HTTP: a read or write of an unknown queue answers
 * 404, and a bad request answers 400, each with a body that says what was wrong and which
 * queues and actions exist.
 */
@EndpointWebExtension(endpoint = WorkQueuesEndpoint.class)
public class WorkQueuesEndpointWebExtension {

	private static final List<String> ACTIONS = List.of("pause", "resume", "pause-everywhere", "resume-everywhere",
			"remove", "requeue-dead-letter", "drop-dead-letter", "requeue-parked", "drop-parked");

	private final WorkQueuesEndpoint delegate;

	public WorkQueuesEndpointWebExtension(WorkQueuesEndpoint delegate) {
		this.delegate = delegate;
	}

	/**
	 * Describes one queue, as {@link WorkQueuesEndpoint#queue(String, String, Integer)}.
	 * @param name the queue
	 * @param search only the dead letters whose item contains it, if given
	 * @param offset how many dead letters to pass over, if given
	 * @return the queue, 404 if there is none of that name, 400 for a negative offset
	 */
	@ReadOperation
	public WebEndpointResponse<Object> queue(@Selector String name, @Nullable String search, @Nullable Integer offset) {
		try {
			QueueDescriptor queue = this.delegate.queue(name, search, offset);
			return (queue != null) ? new WebEndpointResponse<>(queue) : notFound(name);
		}
		catch (InvalidEndpointRequestException ex) {
			return badRequest(ex.getMessage());
		}
	}

	@WriteOperation
	public WebEndpointResponse<Object> changeWorkers(@Selector String name, @Nullable String action,
			@Nullable String item, @Nullable String search, @Nullable Integer count, @Nullable String newest,
			@Nullable Long newestAt, @Nullable Principal principal) {
		if (!this.delegate.hasQueue(name)) {
			return notFound(name);
		}
		if (action == null) {
			return badRequest("Missing \"action\": send {\"action\": \"pause\"} or {\"action\": \"resume\"}");
		}
		try {
			return new WebEndpointResponse<>(
					this.delegate.changeWorkers(name, action, item, search, count, newest, newestAt, principal));
		}
		catch (InvalidEndpointRequestException ex) {
			return badRequest(ex.getMessage());
		}
	}

	private WebEndpointResponse<Object> notFound(String name) {
		return new WebEndpointResponse<>(
				new ErrorDescriptor("No queue named '" + name + "'", this.delegate.names(), ACTIONS),
				WebEndpointResponse.STATUS_NOT_FOUND);
	}

	private WebEndpointResponse<Object> badRequest(@Nullable String message) {
		return new WebEndpointResponse<>(new ErrorDescriptor(String.valueOf(message), this.delegate.names(), ACTIONS),
				WebEndpointResponse.STATUS_BAD_REQUEST);
	}

	/**
	 * What was wrong with a request.
	 *
	 * @param error what was wrong
	 * @param queues the queues that exist
	 * @param actions the actions a write takes
	 */
	public record ErrorDescriptor(String error, List<String> queues,
			List<String> actions) implements OperationResponseBody {

	}

}
