import type { ClusterConfig } from '../config/config-schema.js';
import type { Snapshot } from './snapshot.js';

export interface CollectOptions {
  /** Clock, for collectedAt. */
  now?: () => Date;
  /** Page size for list calls (default 500). */
  pageSize?: number;
}

/** STUB (to be implemented by the live-collector work): read a live cluster into a Snapshot. */
export async function collectSnapshot(cluster: ClusterConfig, opts: CollectOptions = {}): Promise<Snapshot> {
  throw new Error(`collectSnapshot not implemented (${cluster.name} ${opts.pageSize ?? ''})`);
}
