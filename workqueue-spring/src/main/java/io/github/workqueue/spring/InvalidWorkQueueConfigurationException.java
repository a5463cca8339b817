package io.github.workqueue.spring;

/**
 * Thrown at startup for configuration that cannot work: an invalid property, a
 * {@code @QueueWorker} method that cannot be called, a queue that cannot be found.
 * Carries what is wrong and how to fix it; Spring Boot's failure analysis prints both.
 */
public class InvalidWorkQueueConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String action;

	private InvalidWorkQueueConfigurationException(String description, String action) {
		super(description);
		this.action = action;
	}

	/**
	 * An invalid property value.
	 * @param property the full property path
	 * @param value the value found
	 * @param problem what is wrong with it
	 * @param fix what to set instead
	 * @return the exception
	 */
	public static InvalidWorkQueueConfigurationException forProperty(String property, Object value, String problem,
			String fix) {
		return new InvalidWorkQueueConfigurationException(
				"Invalid workqueue configuration: property '" + property + "' (value: " + value + ") " + problem + ".",
				fix);
	}

	/**
	 * A {@code @QueueWorker} method that cannot be used.
	 * @param method the method, as {@code Class.method(ParameterTypes)}
	 * @param problem what is wrong with it
	 * @param fix how to change it
	 * @return the exception
	 */
	public static InvalidWorkQueueConfigurationException forMethod(String method, String problem, String fix) {
		return new InvalidWorkQueueConfigurationException(
				"Invalid @QueueWorker method " + method + ": " + problem + ".", fix);
	}

	/**
	 * A queue that a {@code @QueueWorker} names but that cannot be found or made.
	 * @param queueName the queue's name
	 * @param problem what is wrong
	 * @param fix how to fix it
	 * @return the exception
	 */
	public static InvalidWorkQueueConfigurationException forQueue(String queueName, String problem, String fix) {
		return new InvalidWorkQueueConfigurationException(
				"Invalid workqueue configuration for queue '" + queueName + "': " + problem + ".", fix);
	}

	/**
	 * Returns how to fix the configuration.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
