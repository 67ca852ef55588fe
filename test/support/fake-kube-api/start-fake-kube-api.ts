/**
 * The fake Kubernetes API server lives in src/sandbox/kube-api/ because the sandbox
 * (`k8s-health sandbox`) serves its simulated live cluster with it. Tests keep importing it from here.
 */
export * from '../../../src/sandbox/kube-api/start-fake-kube-api.js';
