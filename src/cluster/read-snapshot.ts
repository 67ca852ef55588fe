import type { ClusterConfig } from '../config/config-schema.js';
import { collectSnapshot, type CollectOptions } from './live/collect-snapshot.js';
import { loadDump } from './dump/load-dump.js';
import type { Snapshot } from './snapshot.js';

/**
 * The one way the rest of the bot reads a configured cluster: a `dump:` cluster is re-read from
 * its directory every time (so swapping the directory plays a cluster that changes over time),
 * otherwise the live cluster is collected.
 */
export async function readSnapshot(cluster: ClusterConfig, opts: CollectOptions = {}): Promise<Snapshot> {
  if (cluster.dump)
    return loadDump(cluster.dump, { cluster: cluster.name, capiCluster: cluster.management?.clusterName });
  return collectSnapshot(cluster, opts);
}
