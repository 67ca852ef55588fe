import { existsSync } from 'node:fs';
import type { ClusterConfig } from '../config/config-schema.js';
import { UsageError } from './usage-error.js';

/**
 * A kubeconfig path the config names must exist before anything is asked of the cluster: a missing file
 * is the user's mistake (a typo, a relative path from elsewhere), a usage error naming the file — never
 * "CRITICAL API server unreachable".
 */
export function assertKubeconfigFiles(cluster: ClusterConfig, configFile?: string): void {
  for (const side of ['workload', 'management'] as const) {
    const file = cluster[side]?.kubeconfig;
    if (file && !existsSync(file)) {
      throw new UsageError(
        `cluster "${cluster.name}": ${side}.kubeconfig ${file} does not exist${configFile ? ` (set in ${configFile})` : ''}`,
      );
    }
  }
}
