import { SEVERITY_RANK, type Finding } from '../diagnose/finding.js';
import type { Report } from '../report/report.js';
import type { AlertChange, AlertChangeDetail, ClusterAlertState, Incident, RelatedFinding } from './incident.js';

/** Options of {@link analyzeAlertChanges}. */
export interface AlertChangeOptions {
  /** The cluster's slack.alertChannel. */
  channel: string;
  /** scan.resolveAfterScans: consecutive scans without the finding before its thread is resolved. */
  resolveAfterScans: number;
  /** A finding back within this many minutes of its resolution reopens the same thread. */
  flapWindowMinutes: number;
  /** Resolved incidents are forgotten this long after resolution (their threads stay in Slack). */
  forgetAfterMinutes?: number;
}

/** Default flap window: one typical 10–15 min recreation cycle twice over (docs/alerts.md). */
export const DEFAULT_FLAP_WINDOW_MINUTES = 30;

const MAX_CHANGES = 50;
const MAX_EVIDENCE_SEEN = 200;
const MAX_REPLY_EVIDENCE = 6;

/**
 * The alert transition of one scan (pure): previous state + report → next state and the incidents
 * that got a change. Scan time is the report's collectedAt (data time), so a replayed incident ages
 * as the data does. A report older than the last applied scan is ignored (a slow scan finishing after
 * a newer one must not roll threads back). Changes are data (alerts/incident.ts): the values from the
 * cluster in them stay raw, for the adapter that shows them to neutralize (slack/render-alert.ts).
 */
export function analyzeAlertChanges(prev: ClusterAlertState, report: Report, opts: AlertChangeOptions): { state: ClusterAlertState; changed: Incident[] } {
  // A capture of unknown time (collectedAt '') is stamped with when it was scanned.
  const at = report.collectedAt || report.generatedAt;
  const atMs = Date.parse(at);
  if (prev.lastScanAt && atMs < Date.parse(prev.lastScanAt)) return { state: prev, changed: [] };
  const state: ClusterAlertState = structuredClone(prev);
  state.lastScanAt = at;
  const changed = new Map<string, Incident>();
  const byFp = new Map(report.findings.map((f) => [f.fingerprint, f]));
  const addChange = (inc: Incident, details: AlertChangeDetail[]) => {
    state.seq += 1;
    const change: AlertChange = { seq: state.seq, kinds: details.map((d) => d.kind), at, details };
    inc.seq = state.seq;
    inc.changes = [...inc.changes, change].slice(-MAX_CHANGES);
    changed.set(inc.fingerprint, inc);
  };

  for (const f of report.findings) {
    const existing = state.incidents[f.fingerprint];
    const alerting = f.severity !== 'info';
    const withinFlap = existing?.status === 'resolved' && existing.resolvedAt !== undefined && atMs - Date.parse(existing.resolvedAt) <= opts.flapWindowMinutes * 60_000;
    if (!existing || (existing.status === 'resolved' && !withinFlap)) {
      if (!alerting) continue;
      state.seq += 1;
      const inc: Incident = {
        cluster: report.cluster,
        fingerprint: f.fingerprint,
        key: `${f.fingerprint}.${state.seq}`,
        channel: opts.channel,
        status: 'open',
        openedAt: at,
        lastSeenAt: at,
        missedScans: 0,
        finding: f,
        severity: f.severity,
        evidenceSeen: normaliseAll(f.evidence),
        related: relatedOf(f, report.findings),
        seq: state.seq,
        changes: [{ seq: state.seq, kinds: ['opened'], at, details: [] }],
      };
      const n = recreationsOf(f);
      if (n !== undefined) inc.recreations = n;
      state.incidents[f.fingerprint] = inc;
      changed.set(f.fingerprint, inc);
      continue;
    }
    // An info echo neither reopens a resolved thread nor keeps an open one alive: once a finding is
    // only info (a stopped recreation loop, a node MHC is replacing) it counts as absent below, so
    // the thread resolves after resolveAfterScans (issue 13, defect 12) instead of staying open.
    if (!alerting) continue;
    const inc = existing;
    const details: AlertChangeDetail[] = [];
    if (inc.status === 'resolved') {
      details.push({ kind: 'reopened', resolvedForMs: atMs - Date.parse(inc.resolvedAt!) });
      inc.status = 'open';
      delete inc.resolvedAt;
    }
    if (f.severity !== inc.finding.severity) {
      details.push({ kind: 'severity', from: inc.finding.severity, to: f.severity });
      if (SEVERITY_RANK[f.severity] < SEVERITY_RANK[inc.severity]) inc.severity = f.severity;
    }
    const n = recreationsOf(f);
    if (n !== undefined && inc.recreations !== undefined && n > inc.recreations) details.push({ kind: 'recreation', from: inc.recreations, to: n });
    if (n !== undefined) inc.recreations = Math.max(n, inc.recreations ?? 0);
    const seen = new Set(inc.evidenceSeen);
    const fresh = f.evidence.filter((e) => !seen.has(normalise(e)));
    if (fresh.length > 0) {
      details.push({ kind: 'evidence', lines: fresh.slice(0, MAX_REPLY_EVIDENCE), more: Math.max(0, fresh.length - MAX_REPLY_EVIDENCE) });
      inc.evidenceSeen = [...inc.evidenceSeen, ...fresh.map(normalise)].slice(-MAX_EVIDENCE_SEEN);
    }
    const related = relatedOf(f, report.findings).filter((fp) => !inc.related.includes(fp));
    if (related.length > 0) {
      details.push({ kind: 'related', findings: related.map((fp) => relatedFinding(f, byFp.get(fp)!)) });
      inc.related = [...inc.related, ...related];
    }
    inc.finding = f;
    inc.lastSeenAt = at;
    inc.missedScans = 0;
    if (details.length > 0) addChange(inc, details);
  }

  const alertingNow = new Set(report.findings.filter((f) => f.severity !== 'info').map((f) => f.fingerprint));
  for (const inc of Object.values(state.incidents)) {
    if (alertingNow.has(inc.fingerprint)) continue;
    if (inc.status === 'open') {
      inc.missedScans += 1;
      if (inc.missedScans >= opts.resolveAfterScans) {
        inc.status = 'resolved';
        inc.resolvedAt = at;
        addChange(inc, [{ kind: 'resolved', missedScans: inc.missedScans, lastSeenAt: inc.lastSeenAt, lastedMs: Date.parse(inc.lastSeenAt) - Date.parse(inc.openedAt) }]);
      }
    } else if (inc.resolvedAt && atMs - Date.parse(inc.resolvedAt) > (opts.forgetAfterMinutes ?? 24 * 60) * 60_000) {
      delete state.incidents[inc.fingerprint];
    }
  }
  return { state, changed: [...changed.values()] };
}

/** Findings that name this one as a cause, or that this one names (one hop), by fingerprint. */
function relatedOf(f: Finding, all: Finding[]): string[] {
  const out = new Set<string>();
  for (const o of all) {
    if (o.fingerprint === f.fingerprint) continue;
    if (o.causedBy?.includes(f.fingerprint) || f.causedBy?.includes(o.fingerprint)) out.add(o.fingerprint);
  }
  return [...out].sort();
}

/** A related finding as data: what it is, and which way the cause runs. */
function relatedFinding(f: Finding, r: Finding): RelatedFinding {
  return { fingerprint: r.fingerprint, id: r.id, title: r.title, severity: r.severity, relation: r.causedBy?.includes(f.fingerprint) ? 'symptom' : 'cause' };
}

/** capi.recreation-loop titles say "N machine replacements"; the count going up is a reply of its own. */
function recreationsOf(f: Finding): number | undefined {
  if (f.id !== 'capi.recreation-loop') return undefined;
  const m = /(\d+) machine replacements?/.exec(f.title);
  return m ? Number(m[1]) : undefined;
}

/**
 * Evidence lines carry relative ages ("5m ago", "for 1h30m") that change every scan; comparing
 * them raw would reply on every scan. Ages are blanked before comparing.
 */
function normalise(line: string): string {
  return line.replace(/\b\d+(?:d|h|m|s)(?:\d+(?:h|m|s))*\b/g, '#');
}

function normaliseAll(lines: string[]): string[] {
  return lines.map(normalise).slice(-MAX_EVIDENCE_SEEN);
}
