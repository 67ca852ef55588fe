import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { Report } from '../report/report.js';
import type { AlertStateStore } from './alert-state-store.js';
import { analyzeAlertChanges, type AlertChangeOptions } from './analyze-alert-changes.js';
import type { ClusterAlertState, Incident } from './incident.js';

/** Compare-and-set retries when scans of one cluster race (scheduled tick + a `/k8s-health` request). */
const MAX_CAS_TRIES = 20;

/**
 * Apply one report to its cluster's alert state in Redis: load, the pure transition
 * (analyze-alert-changes.ts), save by compare-and-set, again on a concurrent save (so racing scans
 * never lose an update). Returns the state as saved and the incidents this report changed; the
 * caller hands unposted changes to whatever announces them (jobs/run-scan-job.ts → notify queue).
 * Throws E_ALERT_STATE_CONTENDED when the state kept changing underneath (the scan job is retried).
 */
export async function recordAlertChanges(store: AlertStateStore, report: Report, opts: AlertChangeOptions): Promise<{ state: ClusterAlertState; changed: Incident[] }> {
  for (let tries = 1; ; tries++) {
    const { state, version } = await store.load(report.cluster);
    const next = analyzeAlertChanges(state, report, opts);
    if (next.state === state || (await store.save(report.cluster, next.state, version))) return next;
    if (tries >= MAX_CAS_TRIES) throw new K8sHealthError('E_ALERT_STATE_CONTENDED', `alert state of ${report.cluster} kept changing under this scan (${tries} tries); the scan job will be retried`);
  }
}
