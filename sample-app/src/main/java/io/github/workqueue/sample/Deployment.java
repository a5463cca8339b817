package io.github.workqueue.sample;

/**
 * What the store knows of one deployment.
 *
 * @param key the deployment's key
 * @param replicas the desired replicas
 * @param generation how many times the desired state was updated
 * @param reconciledGeneration the generation last applied downstream, 0 if none
 * @param reconciles how many times the reconciler applied it
 */
public record Deployment(String key, int replicas, long generation, long reconciledGeneration, long reconciles) {

}
