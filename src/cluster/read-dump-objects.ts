import type { ApiServerState, EtcdState, KubeObject, PartialEntry } from './snapshot.js';

/** Raw content of a dump directory, before it becomes a Snapshot (the fake API server serves these). */
export interface DumpObjects {
  /** Objects of the workload cluster (or of the single cluster when there is no workload/ + management/ split). */
  workload: KubeObject[];
  /** Objects of the management cluster, when DIR/management/ exists. */
  management?: KubeObject[];
  etcd?: EtcdState;
  apiserver?: ApiServerState;
  meta: { cluster?: string; collectedAt?: string; partial?: PartialEntry[] };
  /** Files that could not be read, with the reason. */
  partial: PartialEntry[];
}

/** STUB (to be implemented by the dump-loader work): read every object of a dump directory. */
export async function readDumpObjects(dir: string): Promise<DumpObjects> {
  throw new Error(`readDumpObjects not implemented (${dir})`);
}
