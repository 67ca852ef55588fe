import type { ClusterConfig } from '../config/config-schema.js';
import type { EtcdState, PartialEntry } from './snapshot.js';

/** STUB (to be implemented by the etcd work): probe etcd members through etcd3. */
export async function collectEtcd(
  cfg: NonNullable<ClusterConfig['etcd']>,
): Promise<{ etcd?: EtcdState; partial: PartialEntry[] }> {
  throw new Error(`collectEtcd not implemented (${cfg.endpoints.join(',')})`);
}
