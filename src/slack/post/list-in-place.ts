import type { InPlaceStore } from '../../store/in-place-store.js';
import type { ReportStore } from '../../store/report-store.js';
import { findBackendDown } from '../render/find-backend-down.js';
import type { InPlaceShown } from '../render/render-in-place.js';

/**
 * The reversible changes still in place in a cluster, each with whether its backend still looks down
 * in the latest stored report: what alert parents and resolution replies show (post-alert.ts).
 */
export function listInPlace(
  store: InPlaceStore,
  reports: Pick<ReportStore, 'latest'>,
): (cluster: string) => Promise<InPlaceShown[]> {
  return async (cluster) => {
    const list = await store.list(cluster);
    if (list.length === 0) return [];
    const latest = await reports.latest(cluster);
    return list.map((change) => {
      const down = findBackendDown(change.backend, latest?.report);
      return down ? { change, backendDown: down } : { change };
    });
  };
}
