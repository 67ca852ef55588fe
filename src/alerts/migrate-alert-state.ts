import type { AlertChange, ClusterAlertState } from './incident.js';
import { EMPTY_ALERT_STATE } from './incident.js';

/**
 * Alert state as read from Redis, in today's shape. Older versions stored `lines` in each change: the
 * Slack mrkdwn of its reply, built (and neutralized) when the scan ran. Those are dropped here, on
 * read: alerts/ stores no Slack text, and the next save writes the state without them. A change that
 * was still unposted at the upgrade then gets the short reply of a change without details ("severity,
 * evidence at <time>"), and the parent shows the incident's current state as always. Anything that is
 * not a state at all is the empty state (threads reopen at worst; alerting never stops for a cluster).
 */
export function migrateAlertState(raw: unknown): ClusterAlertState {
  if (!isObject(raw) || !isObject(raw.incidents)) return structuredClone(EMPTY_ALERT_STATE);
  const state = raw as unknown as ClusterAlertState;
  for (const inc of Object.values(state.incidents)) {
    if (!Array.isArray(inc.changes)) inc.changes = [];
    inc.changes = inc.changes.map((c) => {
      const { lines: _legacyText, ...change } = c as AlertChange & { lines?: unknown };
      return {
        ...change,
        kinds: Array.isArray(change.kinds) ? change.kinds : [],
        details: Array.isArray(change.details) ? change.details : [],
      };
    });
    if (!Array.isArray(inc.related)) inc.related = [];
    // Older versions kept one incident per finding: no symptoms listed yet (the next scan fills them in,
    // and closes the incidents of findings that are symptoms into their cause's thread).
    if (!Array.isArray(inc.symptoms)) inc.symptoms = [];
    if (!Array.isArray(inc.evidenceSeen)) inc.evidenceSeen = [];
  }
  if (typeof state.seq !== 'number') state.seq = 0;
  return state;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
