import { createHash } from 'node:crypto';
import type { Finding, Severity } from '../diagnose/finding.js';

/** One cluster's part in a fleet incident: its own incident (root cause) and whether it recovered. */
export interface FleetMember {
  cluster: string;
  /** The cluster's incident: its root-cause fingerprint and thread key (alerts/incident.ts). */
  fingerprint: string;
  incidentKey: string;
  severity: Severity;
  title: string;
  /** When this cluster's incident opened (its scan's data time). */
  joinedAt: string;
  /** Set when the cluster's incident resolved: it stays listed, marked recovered. */
  recoveredAt?: string;
  /** `version` of the record when this member joined (the parent names it once rendered at or after it). */
  joinedVersion: number;
}

/**
 * The same root cause (finding id + correlationKey) on several clusters of one alert channel: one
 * thread. Its first member is the anchor — the thread is the anchor's own, opened as usual, and
 * becomes the fleet thread when a second cluster joins; later members post into it.
 */
export interface FleetIncident {
  /** fleetIncidentKey(channel, id, correlationKey). */
  key: string;
  channel: string;
  id: Finding['id'];
  correlationKey: string;
  /** The first member: whose thread carries the fleet incident. */
  anchor: { cluster: string; fingerprint: string; incidentKey: string };
  members: FleetMember[];
  /** Bumped on every change; the parent was last rendered at `renderedVersion`. */
  version: number;
  renderedVersion?: number;
  /** The version at which a poster claimed the next edit of the parent (it renders the state as of its send slot). */
  renderClaimVersion?: number;
}

/**
 * The key of a fleet incident (docs/alerts.md, next to the alert fingerprint): channel + finding id + correlationKey,
 * hashed.
 */
export function fleetIncidentKey(channel: string, id: string, correlationKey: string): string {
  return createHash('sha256').update([channel, id, correlationKey].join('\u0000')).digest('hex').slice(0, 16);
}

/** A fleet incident with two or more clusters: only then is the thread a fleet thread. */
export function isFleet(f: FleetIncident | undefined): f is FleetIncident {
  return !!f && f.members.length >= 2;
}

/** Still going: some member has not recovered. */
export function isOngoing(f: FleetIncident): boolean {
  return f.members.some((m) => !m.recoveredAt);
}

export interface JoinRequest {
  channel: string;
  cluster: string;
  finding: Finding;
  fingerprint: string;
  incidentKey: string;
  /** The scan's data time (ISO). */
  at: string;
}

/**
 * A cluster's incident opening with a correlationKey (pure): the record it belongs to afterwards.
 * It joins an ongoing record whose latest member joined within `windowMs` before it (or a record
 * that is already a fleet incident and still ongoing); otherwise it starts a record of its own as its
 * anchor (replacing a finished or stale one). A cluster already a member is refreshed, not added twice.
 */
export function joinFleetIncident(prev: FleetIncident | undefined, req: JoinRequest, windowMs: number): FleetIncident {
  const key = fleetIncidentKey(req.channel, req.finding.id, req.finding.correlationKey ?? '');
  const atMs = Date.parse(req.at);
  const member = (version: number): FleetMember => ({
    cluster: req.cluster,
    fingerprint: req.fingerprint,
    incidentKey: req.incidentKey,
    severity: req.finding.severity,
    title: req.finding.title,
    joinedAt: req.at,
    joinedVersion: version,
  });
  const latest = prev ? Math.max(...prev.members.map((m) => Date.parse(m.joinedAt))) : NaN;
  const joinable =
    prev && isOngoing(prev) && (isFleet(prev) || (atMs - latest <= windowMs && atMs >= latest - windowMs));
  if (!prev || !joinable) {
    return {
      key,
      channel: req.channel,
      id: req.finding.id,
      correlationKey: req.finding.correlationKey ?? '',
      anchor: { cluster: req.cluster, fingerprint: req.fingerprint, incidentKey: req.incidentKey },
      members: [member(1)],
      version: 1,
    };
  }
  const version = prev.version + 1;
  const others = prev.members.filter((m) => m.cluster !== req.cluster);
  const same = prev.members.find((m) => m.cluster === req.cluster && m.incidentKey === req.incidentKey);
  // The same incident back (reopened): it keeps its place and is failing again.
  const joined: FleetMember = same ? { ...same, joinedVersion: version } : member(version);
  delete joined.recoveredAt;
  return {
    ...prev,
    members: [...others, joined].sort(
      (a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.cluster.localeCompare(b.cluster),
    ),
    version,
  };
}

/** A member's incident resolved: it stays listed, marked recovered in place. */
export function markRecovered(f: FleetIncident, cluster: string, at: string): FleetIncident {
  if (!f.members.some((m) => m.cluster === cluster && !m.recoveredAt)) return f;
  return {
    ...f,
    version: f.version + 1,
    members: f.members.map((m) => (m.cluster === cluster && !m.recoveredAt ? { ...m, recoveredAt: at } : m)),
  };
}

/** The gravest severity of the clusters still failing (of all, once every one recovered). */
export function fleetSeverity(f: FleetIncident): Severity {
  const rank: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
  const pool = f.members.filter((m) => !m.recoveredAt);
  return (pool.length ? pool : f.members).reduce<Severity>(
    (w, m) => (rank[m.severity] < rank[w] ? m.severity : w),
    'info',
  );
}
