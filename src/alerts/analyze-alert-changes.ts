import { SEVERITY_RANK, type Finding } from '../diagnose/finding.js';
import { findRootCauses } from '../report/find-root-causes.js';
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
  /**
   * While remediation is paused in an incident (capi.remediation-paused), remind at most this often (hours; default 4).
   */
  pausedReminderHours?: number;
  /** Resolved incidents are forgotten this long after resolution (their threads stay in Slack). */
  forgetAfterMinutes?: number;
}

/** Default cadence of "remediation still paused" reminders (docs/alerts.md). */
export const DEFAULT_PAUSED_REMINDER_HOURS = 4;

/** Default flap window: one typical 10–15 min recreation cycle twice over (docs/alerts.md). */
export const DEFAULT_FLAP_WINDOW_MINUTES = 30;

const MAX_CHANGES = 50;
const MAX_EVIDENCE_SEEN = 200;
const MAX_REPLY_EVIDENCE = 6;
/** Symptoms kept in the incident (the parent lists a few of them and says how many more). */
const MAX_SYMPTOMS = 50;

/**
 * The alert transition of one scan (pure): previous state + report → next state and the incidents
 * that got a change. Scan time is the report's collectedAt (data time), so a replayed incident ages
 * as the data does. A report older than the last applied scan is ignored (a slow scan finishing after
 * a newer one must not roll threads back). Changes are data (alerts/incident.ts): the values from the
 * cluster in them stay raw, for the adapter that shows them to neutralize (slack/render/render-alert.ts).
 */
export function analyzeAlertChanges(
  prev: ClusterAlertState,
  report: Report,
  opts: AlertChangeOptions,
): { state: ClusterAlertState; changed: Incident[] } {
  // A capture of unknown time (collectedAt '') is stamped with when it was scanned.
  const at = report.collectedAt || report.generatedAt;
  const atMs = Date.parse(at);
  if (prev.lastScanAt && atMs < Date.parse(prev.lastScanAt)) return { state: prev, changed: [] };
  const state: ClusterAlertState = structuredClone(prev);
  state.lastScanAt = at;
  const changed = new Map<string, Incident>();
  const addChange = (inc: Incident, details: AlertChangeDetail[]) => {
    state.seq += 1;
    const change: AlertChange = { seq: state.seq, kinds: details.map((d) => d.kind), at, details };
    inc.seq = state.seq;
    inc.changes = [...inc.changes, change].slice(-MAX_CHANGES);
    changed.set(inc.fingerprint, inc);
  };

  // One thread per root cause: every alerting finding belongs to the deepest alerting
  // finding its `causedBy` chain reaches (itself when it has no known cause).
  const alerting = report.findings.filter((f) => f.severity !== 'info');
  const rootOf = new Map(alerting.map((f) => [f.fingerprint, findRootCauses(f, alerting).at(-1) ?? f]));
  const symptomsOf = new Map<string, Finding[]>();
  for (const f of alerting) {
    const root = rootOf.get(f.fingerprint)!;
    if (root.fingerprint !== f.fingerprint)
      symptomsOf.set(root.fingerprint, [...(symptomsOf.get(root.fingerprint) ?? []), f]);
  }
  const roots = alerting.filter((f) => rootOf.get(f.fingerprint)!.fingerprint === f.fingerprint);

  // A finding with a thread of its own that is now a symptom: closed into its cause's thread.
  for (const f of alerting) {
    const root = rootOf.get(f.fingerprint)!;
    const own = state.incidents[f.fingerprint];
    if (root.fingerprint === f.fingerprint || !own || own.status !== 'open') continue;
    own.status = 'resolved';
    own.resolvedAt = at;
    own.mergedInto = root.fingerprint;
    own.finding = f;
    own.lastSeenAt = at;
    addChange(own, [{ kind: 'merged', into: root.fingerprint, id: root.id, title: root.title }]);
  }

  for (const f of roots) {
    const symptoms = (symptomsOf.get(f.fingerprint) ?? [])
      .map((s) => symptomEntry(s))
      .sort(
        (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.fingerprint.localeCompare(b.fingerprint),
      );
    const existing = state.incidents[f.fingerprint];
    const withinFlap =
      existing?.status === 'resolved' &&
      existing.resolvedAt !== undefined &&
      atMs - Date.parse(existing.resolvedAt) <= opts.flapWindowMinutes * 60_000;
    if (!existing || (existing.status === 'resolved' && !withinFlap)) {
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
        // A root cause is as grave as what it causes: a warning-level CNI fault under a critical degraded control
        // plane.
        severity: worstOf([f, ...(symptomsOf.get(f.fingerprint) ?? [])]),
        evidenceSeen: normaliseAll(f.evidence),
        related: symptoms.map((s) => s.fingerprint),
        symptoms: symptoms.slice(0, MAX_SYMPTOMS),
        seq: state.seq,
        changes: [{ seq: state.seq, kinds: ['opened'], at, details: [] }],
      };
      const n = recreationsOf(f);
      if (n !== undefined) inc.recreations = n;
      if ([f, ...(symptomsOf.get(f.fingerprint) ?? [])].some((x) => x.id === 'capi.remediation-paused'))
        inc.pausedRemindedAt = at;
      state.incidents[f.fingerprint] = inc;
      changed.set(f.fingerprint, inc);
      continue;
    }
    // An info echo neither reopens a resolved thread nor keeps an open one alive: once a finding is
    // only info (a stopped recreation loop, a node MHC is replacing) it counts as absent below, so
    // the thread resolves after resolveAfterScans (defect class 12) instead of staying open.
    const inc = existing;
    const details: AlertChangeDetail[] = [];
    if (inc.status === 'resolved') {
      details.push({ kind: 'reopened', resolvedForMs: atMs - Date.parse(inc.resolvedAt!) });
      inc.status = 'open';
      delete inc.resolvedAt;
      delete inc.mergedInto;
    }
    if (f.severity !== inc.finding.severity) {
      details.push({ kind: 'severity', from: inc.finding.severity, to: f.severity });
      if (SEVERITY_RANK[f.severity] < SEVERITY_RANK[inc.severity]) inc.severity = f.severity;
    }
    const worst = worstOf([f, ...(symptomsOf.get(f.fingerprint) ?? [])]);
    if (SEVERITY_RANK[worst] < SEVERITY_RANK[inc.severity]) inc.severity = worst;
    const n = recreationsOf(f);
    if (n !== undefined && inc.recreations !== undefined && n > inc.recreations)
      details.push({ kind: 'recreation', from: inc.recreations, to: n });
    if (n !== undefined) inc.recreations = Math.max(n, inc.recreations ?? 0);
    const seen = new Set(inc.evidenceSeen);
    const fresh = f.evidence.filter((e) => !seen.has(normalise(e)));
    if (fresh.length > 0) {
      details.push({
        kind: 'evidence',
        lines: fresh.slice(0, MAX_REPLY_EVIDENCE),
        more: Math.max(0, fresh.length - MAX_REPLY_EVIDENCE),
      });
      inc.evidenceSeen = [...inc.evidenceSeen, ...fresh.map(normalise)].slice(-MAX_EVIDENCE_SEEN);
    }
    // A symptom appearing is a reply of its own ("added as replies when they appear").
    const fresher = symptoms.filter((s) => !inc.related.includes(s.fingerprint));
    if (fresher.length > 0) {
      details.push({ kind: 'related', findings: fresher });
      inc.related = [...inc.related, ...fresher.map((s) => s.fingerprint)].slice(-MAX_EVIDENCE_SEEN);
    }
    const paused = [f, ...(symptomsOf.get(f.fingerprint) ?? [])].find((x) => x.id === 'capi.remediation-paused');
    if (!paused) delete inc.pausedRemindedAt;
    else if (!inc.pausedRemindedAt)
      inc.pausedRemindedAt = at; // the parent or a symptom reply says it first
    else if (
      atMs - Date.parse(inc.pausedRemindedAt) >=
      (opts.pausedReminderHours ?? DEFAULT_PAUSED_REMINDER_HOURS) * 3_600_000
    ) {
      const resume = paused.remediations.find((r) => r.action === 'mhc.resume-remediation');
      details.push({
        kind: 'paused',
        mhc: `${paused.subject.namespace ? `${paused.subject.namespace}/` : ''}${paused.subject.name}`,
        ...(paused.since ? { since: paused.since } : {}),
        ...(resume ? { resume: resume.label } : {}),
      });
      inc.pausedRemindedAt = at;
    }
    inc.symptoms = symptoms.slice(0, MAX_SYMPTOMS);
    inc.finding = f;
    inc.lastSeenAt = at;
    inc.missedScans = 0;
    if (details.length > 0) addChange(inc, details);
  }

  const rootsNow = new Set(roots.map((f) => f.fingerprint));
  for (const inc of Object.values(state.incidents)) {
    if (rootsNow.has(inc.fingerprint)) continue;
    if (inc.status === 'open') {
      inc.missedScans += 1;
      if (inc.missedScans >= opts.resolveAfterScans) {
        inc.status = 'resolved';
        inc.resolvedAt = at;
        addChange(inc, [
          {
            kind: 'resolved',
            missedScans: inc.missedScans,
            lastSeenAt: inc.lastSeenAt,
            lastedMs: Date.parse(inc.lastSeenAt) - Date.parse(inc.openedAt),
          },
        ]);
      }
    } else if (inc.resolvedAt && atMs - Date.parse(inc.resolvedAt) > (opts.forgetAfterMinutes ?? 24 * 60) * 60_000) {
      delete state.incidents[inc.fingerprint];
    }
  }
  return { state, changed: [...changed.values()] };
}

/** A symptom as data: what it is and since when (raw values; the adapter neutralizes them). */
function symptomEntry(s: Finding): RelatedFinding {
  return {
    fingerprint: s.fingerprint,
    id: s.id,
    title: s.title,
    severity: s.severity,
    relation: 'symptom',
    ...(s.since ? { since: s.since } : {}),
  };
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

/** The gravest severity among a root cause and its symptoms. */
function worstOf(findings: readonly Finding[]): Finding['severity'] {
  return findings.reduce<Finding['severity']>(
    (w, f) => (SEVERITY_RANK[f.severity] < SEVERITY_RANK[w] ? f.severity : w),
    'info',
  );
}
