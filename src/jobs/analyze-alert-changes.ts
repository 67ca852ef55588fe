import { formatAge } from '../diagnose/facts/age.js';
import { SEVERITY_RANK, type Finding } from '../diagnose/finding.js';
import { neutralizeMrkdwn as md } from '../text/neutralize-mrkdwn.js';
import type { Report } from '../report/report.js';
import type { AlertChange, AlertChangeKind, ClusterAlertState, Incident } from '../store/alert-state-store.js';

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
 * The alert-thread transition of one scan (pure): previous state + report → next state and the
 * incidents that got a change. Scan time is the report's collectedAt (data time), so a replayed
 * incident ages as the data does. A report older than the last applied scan is ignored (a slow
 * scan finishing after a newer one must not roll threads back). A change's `lines` are Slack mrkdwn
 * posted as they are (slack/render-alert.ts): every value from the cluster in them is neutralized
 * here (report/neutralize-mrkdwn.ts).
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
  const addChange = (inc: Incident, kinds: AlertChangeKind[], lines: string[]) => {
    state.seq += 1;
    const change: AlertChange = { seq: state.seq, kinds, at, lines };
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
        changes: [{ seq: state.seq, kinds: ['opened'], at, lines: [] }],
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
    const kinds: AlertChangeKind[] = [];
    const lines: string[] = [];
    if (inc.status === 'resolved') {
      kinds.push('reopened');
      lines.push(`:repeat: *Back again* ${formatAge(atMs - Date.parse(inc.resolvedAt!))} after it was resolved — this thread is open again.`);
      inc.status = 'open';
      delete inc.resolvedAt;
    }
    if (f.severity !== inc.finding.severity) {
      kinds.push('severity');
      const up = SEVERITY_RANK[f.severity] < SEVERITY_RANK[inc.finding.severity];
      lines.push(`${up ? ':arrow_up: Severity raised' : ':arrow_down: Severity lowered'}: ${md(inc.finding.severity, { max: 20 })} → *${md(f.severity, { max: 20 })}*`);
      if (SEVERITY_RANK[f.severity] < SEVERITY_RANK[inc.severity]) inc.severity = f.severity;
    }
    const n = recreationsOf(f);
    if (n !== undefined && inc.recreations !== undefined && n > inc.recreations) {
      kinds.push('recreation');
      lines.push(`:recycle: Recreation counted again: ${inc.recreations} → *${n}* machine replacements`);
    }
    if (n !== undefined) inc.recreations = Math.max(n, inc.recreations ?? 0);
    const seen = new Set(inc.evidenceSeen);
    const fresh = f.evidence.filter((e) => !seen.has(normalise(e)));
    if (fresh.length > 0) {
      kinds.push('evidence');
      lines.push(':mag: New evidence:');
      for (const e of fresh.slice(0, MAX_REPLY_EVIDENCE)) lines.push(`> ${md(e, { max: 400 })}`);
      if (fresh.length > MAX_REPLY_EVIDENCE) lines.push(`> _+${fresh.length - MAX_REPLY_EVIDENCE} more_`);
      inc.evidenceSeen = [...inc.evidenceSeen, ...fresh.map(normalise)].slice(-MAX_EVIDENCE_SEEN);
    }
    const related = relatedOf(f, report.findings).filter((fp) => !inc.related.includes(fp));
    if (related.length > 0) {
      kinds.push('related');
      for (const fp of related) {
        const r = byFp.get(fp)!;
        lines.push(`:link: Related finding: ${md(r.severity, { max: 20 })} *${md(r.title, { max: 300 })}* (\`${md(r.id, { max: 80 })}\`)`);
      }
      inc.related = [...inc.related, ...related];
    }
    inc.finding = f;
    inc.lastSeenAt = at;
    inc.missedScans = 0;
    if (kinds.length > 0) addChange(inc, kinds, lines);
  }

  const alertingNow = new Set(report.findings.filter((f) => f.severity !== 'info').map((f) => f.fingerprint));
  for (const inc of Object.values(state.incidents)) {
    if (alertingNow.has(inc.fingerprint)) continue;
    if (inc.status === 'open') {
      inc.missedScans += 1;
      if (inc.missedScans >= opts.resolveAfterScans) {
        inc.status = 'resolved';
        inc.resolvedAt = at;
        const open = formatAge(Date.parse(inc.lastSeenAt) - Date.parse(inc.openedAt));
        addChange(inc, ['resolved'], [
          `:white_check_mark: *Resolved*: not seen in ${inc.missedScans} consecutive scans (last seen ${md(inc.lastSeenAt, { max: 40 })}); it lasted ${open}.`,
        ]);
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
