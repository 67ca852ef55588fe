import type { ClusterConfig } from '../config/config-schema.js';
import { matchesAll, parseMatchers, type AlertMatcher } from '../config/parse-alert-matchers.js';

/** Which cluster's an alert is, and why (`label`, `matchers`), or none. */
export type ClusterMatch = { cluster: ClusterConfig; by: 'label' | 'matchers' } | undefined;

/**
 * The cluster an alert belongs to (docs/alertmanager.md "Which cluster"): its `clusterLabel` naming a
 * cluster (a configured one's name; a fleet cluster's bot name, its `namespace/name` or its own Cluster
 * name when that is unique), else the first cluster whose matchers all match (config
 * `clusters[].alertmanager.matchers`; a fleet cluster's `k8s-health.io/alert-matchers` annotation, carried
 * as the same field). Pure; a cluster's matchers are parsed once per cluster list.
 */
export function mapAlertCluster(
  labels: Readonly<Record<string, string>>,
  clusters: readonly ClusterConfig[],
  clusterLabel: string,
): ClusterMatch {
  const named = labels[clusterLabel];
  if (named) {
    const exact = clusters.find((c) => c.name === named);
    if (exact) return { cluster: exact, by: 'label' };
    const fleet = clusters.filter(
      (c) => c.fleet && (`${c.fleet.namespace}/${c.fleet.clusterName}` === named || c.fleet.clusterName === named),
    );
    if (fleet.length === 1) return { cluster: fleet[0]!, by: 'label' };
  }
  for (const c of clusters) {
    const matchers = matchersOf(c);
    if (matchers.length > 0 && matchers.some((group) => matchesAll(group, labels)))
      return { cluster: c, by: 'matchers' };
  }
  return undefined;
}

const parsed = new WeakMap<ClusterConfig, AlertMatcher[][]>();

/** Each configured matcher string is one group: an alert matching every matcher of any group is the cluster's. */
function matchersOf(c: ClusterConfig): AlertMatcher[][] {
  let out = parsed.get(c);
  if (!out) {
    out = (c.alertmanager?.matchers ?? []).flatMap((text, i) => {
      try {
        return [parseMatchers(text, `clusters[${c.name}].alertmanager.matchers[${i}]`)];
      } catch {
        // Refused at config load; a discovered cluster's bad annotation is warned about by discovery.
        return [];
      }
    });
    parsed.set(c, out);
  }
  return out;
}
