import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { AlertStateStore } from './alert-state-store.js';
import type { ClusterAlertState, Incident } from './incident.js';

/**
 * Fleet mode (docs/fleet.md): a discovered cluster whose `Cluster` object was deleted. Every open
 * incident of it resolves at once with the reason `cluster-deleted` (no more scans will come to
 * resolve it the usual way) — or, when the cluster was only renamed (`renamedTo`: a second Cluster of its
 * name appeared, docs/fleet.md), with `cluster-renamed` and its new name; the caller hands the changes to the notify
 * queue like a scan's. Kept apart from the scan transition (analyze-alert-changes.ts) on purpose: one call, by
 * compare-and-set.
 */
export async function resolveClusterDeleted(
  store: AlertStateStore,
  cluster: string,
  at: string,
  renamedTo?: string,
): Promise<{ state: ClusterAlertState; changed: Incident[] }> {
  for (let tries = 1; ; tries++) {
    const { state, version } = await store.load(cluster);
    const next = structuredClone(state);
    const changed: Incident[] = [];
    for (const inc of Object.values(next.incidents)) {
      if (inc.status !== 'open') continue;
      next.seq += 1;
      inc.status = 'resolved';
      inc.resolvedAt = at;
      inc.seq = next.seq;
      inc.changes = [
        ...inc.changes,
        {
          seq: next.seq,
          kinds: ['resolved'],
          at,
          details: [
            {
              kind: 'resolved',
              missedScans: inc.missedScans,
              lastSeenAt: inc.lastSeenAt,
              lastedMs: Date.parse(inc.lastSeenAt) - Date.parse(inc.openedAt),
              ...(renamedTo
                ? { reason: 'cluster-renamed' as const, renamedTo }
                : { reason: 'cluster-deleted' as const }),
            },
          ],
        },
      ];
      changed.push(inc);
    }
    if (!changed.length || (await store.save(cluster, next, version)))
      return { state: changed.length ? next : state, changed };
    if (tries >= 20)
      throw new K8sHealthError(
        'E_ALERT_STATE_CONTENDED',
        `alert state of ${cluster} kept changing while resolving its incidents as "cluster deleted"`,
      );
  }
}
