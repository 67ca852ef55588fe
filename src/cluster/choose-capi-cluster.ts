import { ConfigError } from '../config/config-error.js';
import type { Snapshot } from './snapshot.js';

/** The Cluster API `Cluster` a bot cluster stands for, on its management cluster. */
export interface CapiClusterRef {
  /** The Cluster object's namespace; undefined when no Cluster object names it (only labels do). */
  namespace?: string;
  name: string;
}

export interface CapiClusterRequest {
  /**
   * The Cluster named by the operator (`management.clusterName`): used as is, and when the management
   * side holds Clusters but none of that name, an error listing them (a typo never reads another cluster).
   */
  configured?: string;
  /** The Cluster a discovered cluster was made from: used as is, even when it is gone by now. */
  discovered?: string;
  /** Names tried in order when nothing is configured (the bot's name, a dump's meta.json `cluster`, …). */
  hints: string[];
  /** Who asks, for the error ("cluster search-dev", "dump ./capture"). */
  what: string;
  /** What to do when several Clusters are found and none is named ("set management.clusterName …"). */
  fix: string;
}

const CLUSTER_LABEL = 'cluster.x-k8s.io/cluster-name';

/**
 * Which Cluster of the management side a bot cluster is. Cluster API keeps many clusters in one
 * namespace, so the management objects a scan reads must be narrowed to one of them: the configured
 * or discovered name; else the first hint that names a Cluster; else the only Cluster there is; none
 * at all: undefined (nothing to narrow). Several and none named is a ConfigError listing them —
 * guessing would report (and fix) a neighbour's objects under this cluster's name.
 */
export function chooseCapiCluster(snapshot: Snapshot, req: CapiClusterRequest): CapiClusterRef | undefined {
  const found = capiClustersOf(snapshot);
  const list = () => found.map(describe).join(', ');
  if (req.configured !== undefined) {
    const match = found.filter((c) => c.name === req.configured);
    if (match.length === 1) return match[0];
    if (match.length > 1)
      throw new ConfigError(
        `${req.what}: management.clusterName "${req.configured}" names ${match.length} Clusters (${match.map(describe).join(', ')}): set management.namespace to the one to use`,
      );
    if (found.length === 0) return { name: req.configured };
    throw new ConfigError(
      `${req.what}: management.clusterName "${req.configured}" names no Cluster on the management side; found: ${list()}`,
    );
  }
  if (req.discovered !== undefined) return found.find((c) => c.name === req.discovered) ?? { name: req.discovered };
  for (const hint of req.hints) {
    const match = found.filter((c) => c.name === hint);
    if (match.length === 1) return match[0];
  }
  if (found.length === 0) return undefined;
  if (found.length === 1) return found[0];
  throw new ConfigError(
    `${req.what}: the management side holds ${found.length} Cluster API Clusters (${list()}) and none is named: ${req.fix}`,
  );
}

/**
 * Every Cluster the management side of a snapshot knows: the Cluster (and TanzuKubernetesCluster)
 * objects, else the distinct `cluster.x-k8s.io/cluster-name` labels of its objects (a capture that
 * holds Machines but not their Cluster).
 */
export function capiClustersOf(snapshot: Snapshot): CapiClusterRef[] {
  const out = new Map<string, CapiClusterRef>();
  for (const c of [...snapshot.capi.clusters, ...snapshot.capi.tanzuKubernetesClusters]) {
    const ref = { namespace: c.metadata.namespace, name: c.metadata.name };
    out.set(describe(ref), ref);
  }
  if (out.size) return [...out.values()].sort((a, b) => cmp(describe(a), describe(b)));
  const labelled = new Set<string>();
  for (const objects of Object.values(snapshot.capi)) {
    for (const o of objects) {
      const l = o.metadata.labels?.[CLUSTER_LABEL];
      if (typeof l === 'string' && l) labelled.add(l);
    }
  }
  return [...labelled].sort(cmp).map((name) => ({ name }));
}

function describe(c: CapiClusterRef): string {
  return c.namespace ? `${c.namespace}/${c.name}` : c.name;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
