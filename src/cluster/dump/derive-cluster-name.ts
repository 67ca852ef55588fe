import path from 'node:path';
import type { KubeObject } from '../snapshot.js';

/** Folder names that say what a directory holds, never which cluster: `<name>/dump/`, `<name>/dump/etcd/`. */
const NOT_A_NAME = new Set(['dump', 'etcd']);

/**
 * The name a dump is reported under when `--cluster` does not give one: meta.json's `cluster`, else
 * the name of the one Cluster API Cluster in the capture, else the directory's name — skipping a
 * directory called `dump` (or `etcd`), which names the layout, not the cluster (`prod-eu/dump/` is
 * prod-eu, never "dump").
 */
export function deriveClusterName(
  dir: string,
  metaCluster: string | undefined,
  capiClusters: readonly KubeObject[],
): string {
  if (metaCluster) return metaCluster;
  const names = [
    ...new Set(capiClusters.map((c) => c.metadata?.name).filter((n): n is string => typeof n === 'string' && n !== '')),
  ];
  if (names.length === 1) return names[0]!;
  let at = path.resolve(dir);
  while (NOT_A_NAME.has(path.basename(at).toLowerCase()) && path.dirname(at) !== at) at = path.dirname(at);
  return path.basename(at) || path.basename(path.resolve(dir));
}
