import type { AlertStateStore } from '../alerts/alert-state-store.js';
import type { AuditLog } from '../store/audit-log.js';
import type { BaselineStore } from '../store/baseline-store.js';
import { renderTimeline } from './render-timeline.js';

/** Audit events read for one timeline at most (the stream is capped at 100,000 for all clusters). */
export const MAX_TIMELINE_AUDIT_EVENTS = 5000;

/** The stores a timeline is read from (each caller passes its own, on its own connection). */
export interface TimelineSources {
  alerts: Pick<AlertStateStore, 'load'>;
  baselines: Pick<BaselineStore, 'listChanges'>;
  audit: Pick<AuditLog, 'list'>;
}

/**
 * The Markdown incident timeline of one cluster from the bot's records: read the alert
 * state, the change log and the audit trail, then render-timeline.ts. One function for both
 * `k8s-health timeline` (cli/run-timeline.ts) and the "Export timeline" button of an alert thread
 * (slack/handle/handle-alert-thread.ts), so both give the same output.
 */
export async function buildTimeline(
  sources: TimelineSources,
  cluster: string,
  opts: { now: Date; since?: string },
): Promise<string> {
  const { state } = await sources.alerts.load(cluster);
  const changes = await sources.baselines.listChanges(cluster, opts.since);
  const audit = await sources.audit.list({ cluster, limit: MAX_TIMELINE_AUDIT_EVENTS });
  return renderTimeline({
    cluster,
    generatedAt: opts.now.toISOString(),
    ...(opts.since ? { since: opts.since } : {}),
    incidents: Object.values(state.incidents),
    audit,
    changes,
  });
}
