import type { Queue } from 'bullmq';
import type { AlertStateStore } from '../alerts/alert-state-store.js';
import { resolveClusterDeleted } from '../alerts/resolve-cluster-deleted.js';
import type { Logger } from '../log/logger.js';
import type { AlertThreadStore } from '../alerts/alert-thread-store.js';
import { enqueueNotify } from './enqueue-notify.js';
import { scanSchedulerId } from './schedule-scans.js';

/**
 * A discovered cluster left its fleet (its Cluster object was deleted; docs/fleet.md), or was renamed
 * (`renamedTo`): its open alert threads resolve as "cluster deleted" (or "renamed", naming the new name), posted by the
 * notify workers like any change, and its scan scheduler goes. Called once per removal, by the process whose directory
 * sync removed it.
 */
export async function retireCluster(
  name: string,
  deps: {
    alerts: AlertStateStore;
    threads: AlertThreadStore;
    scanQueue: Queue;
    notifyQueue?: Queue;
    now: () => Date;
    log: Logger;
  },
  renamedTo?: string,
): Promise<void> {
  const { state, changed } = await resolveClusterDeleted(deps.alerts, name, deps.now().toISOString(), renamedTo);
  if (deps.notifyQueue) {
    for (const [fp, inc] of Object.entries(state.incidents)) {
      const thread = await deps.threads.get(name, inc.key);
      if (inc.seq > (thread?.postedSeq ?? 0))
        await enqueueNotify(deps.notifyQueue, { cluster: name, fingerprint: fp, seq: inc.seq });
    }
  }
  await deps.scanQueue.removeJobScheduler(scanSchedulerId(name));
  deps.log.info(
    { cluster: name, renamedTo, resolved: changed.map((i) => i.finding.id) },
    renamedTo
      ? 'fleet: cluster renamed; its threads here resolve and its scans go on under the new name'
      : 'fleet: cluster deleted; its alert threads resolve and its scans stop',
  );
}
