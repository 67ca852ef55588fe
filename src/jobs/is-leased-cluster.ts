import type { ClusterConfig, Config } from '../config/config-schema.js';

/**
 * Fleet mode (docs/fleet.md): a live cluster is scanned by the one worker holding its lease
 * when scan.watch and scan.leases are on; dump clusters (re-read files, nothing to watch) and
 * `scan.leases: false` keep the BullMQ schedulers, which any scan worker serves.
 */
export function isLeasedCluster(config: Config, cluster: ClusterConfig): boolean {
  return config.scan.watch && config.scan.leases && cluster.dump === undefined;
}
