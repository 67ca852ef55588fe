import os from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from './kube-error.js';
import { describeError } from '../../errors/describe-error.js';

/** Where to find a cluster: a kubeconfig file and a context in it (both optional). */
export interface KubeContextRef {
  kubeconfig?: string;
  context?: string;
  /** The kubeconfig's content (from a Secret, fleet mode): used instead of a file. */
  kubeconfigData?: string;
}

/**
 * A KubeConfig for a cluster entry of the config file: the given kubeconfig file (or the usual
 * lookup: $KUBECONFIG, ~/.kube/config, in-cluster ServiceAccount) switched to the given context.
 * Throws KubeError E_KUBE_CONFIG with the file and context named.
 */
export function loadKubeConfig(ref: KubeContextRef = {}): KubeConfig {
  const kc = new KubeConfig();
  const file =
    ref.kubeconfigData !== undefined ? '(from a Secret)' : ref.kubeconfig?.replace(/^~(?=$|\/)/, os.homedir());
  try {
    if (ref.kubeconfigData !== undefined) kc.loadFromString(ref.kubeconfigData);
    else if (file) kc.loadFromFile(file);
    else kc.loadFromDefault();
  } catch (err) {
    throw new KubeError(
      'E_KUBE_CONFIG',
      `cannot load kubeconfig ${file ?? '(default lookup)'}: ${describeError(err)}`,
      undefined,
      { cause: err },
    );
  }
  if (ref.context) {
    if (!kc.getContextObject(ref.context)) {
      throw new KubeError(
        'E_KUBE_CONFIG',
        `context "${ref.context}" not found in kubeconfig ${file ?? '(default lookup)'} — available: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        }`,
      );
    }
    kc.setCurrentContext(ref.context);
  }
  if (!kc.getCurrentCluster()) {
    throw new KubeError(
      'E_KUBE_CONFIG',
      `kubeconfig ${file ?? '(default lookup)'} has no cluster for context "${kc.getCurrentContext()}" — set workload.context in the config`,
    );
  }
  return kc;
}
