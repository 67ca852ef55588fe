import type { Incident } from '../../alerts/incident.js';
import { formatAge } from '../../diagnose/facts/age.js';

/** The times every message about one incident shows: one record, so no two messages disagree. */
export interface IncidentTimes {
  /**
   * When the problem started: the finding's own start when it knows one before the first scan that saw it, else that
   * scan.
   */
  since: string;
  /** The last scan that saw it. */
  lastSeen: string;
  /** When it was declared resolved (resolved incidents only). */
  resolvedAt?: string;
  /** "14m": from `since` to `lastSeen`, or undefined when a time is unparsable. */
  lasted?: string;
}

/**
 * The one set of times of an incident (pure): the parent, its replies, the answer cards and the
 * timeline all read them here. The problem's start is the finding's `since` when that is earlier
 * than the scan that opened the incident (a webhook down since 9:02 and first scanned at 10:00 lasted
 * from 9:02), so "lasted" never contradicts "since".
 */
export function incidentTimes(
  inc: Pick<Incident, 'openedAt' | 'lastSeenAt' | 'resolvedAt' | 'status'> & { finding: { since?: string } },
): IncidentTimes {
  const opened = Date.parse(inc.openedAt);
  const own = inc.finding.since ? Date.parse(inc.finding.since) : NaN;
  const since = !Number.isNaN(own) && (Number.isNaN(opened) || own < opened) ? inc.finding.since! : inc.openedAt;
  const from = Date.parse(since);
  const to = Date.parse(inc.lastSeenAt);
  const lasted = Number.isNaN(from) || Number.isNaN(to) ? undefined : formatAge(Math.max(0, to - from));
  return {
    since,
    lastSeen: inc.lastSeenAt,
    ...(inc.status === 'resolved' && inc.resolvedAt ? { resolvedAt: inc.resolvedAt } : {}),
    ...(lasted ? { lasted } : {}),
  };
}
