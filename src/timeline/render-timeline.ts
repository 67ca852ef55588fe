import type { ClusterChange } from '../diagnose/changes/cluster-fingerprint.js';
import type { AlertChange, AlertChangeDetail, Incident } from '../alerts/incident.js';
import { formatAge } from '../diagnose/facts/age.js';
import type { AuditEvent } from '../store/audit-log.js';
import type { ChangeRecord } from '../store/baseline-store.js';
import { escapeMarkdown as md } from '../text/escape-markdown.js';

/** What an incident timeline is built from (read by the caller from Redis; this renderer does no I/O). */
export interface TimelineInput {
  cluster: string;
  /** When the timeline is produced (ISO). */
  generatedAt: string;
  /** Only what happened at or after this time (ISO); undefined = everything stored. */
  since?: string;
  /** Alert incidents of the cluster (open, and resolved ones not yet forgotten). */
  incidents: Incident[];
  /** Audit events of the cluster, any order. */
  audit: AuditEvent[];
  /** "What changed since last healthy" observations, any order. */
  changes: ChangeRecord[];
}

interface Row {
  at: string;
  order: number;
  text: string;
}

const AUDIT_WORD: Record<AuditEvent['event'], string> = {
  proposed: 'proposed',
  refused: 'refused',
  approved: 'approved',
  rejected: 'rejected',
  cancelled: 'cancelled',
  expired: 'expired',
  executing: 'started',
  succeeded: 'succeeded',
  failed: 'failed',
  aborted: 'aborted',
  interrupted: 'interrupted',
  owned: 'took ownership of',
  snoozed: 'snoozed',
  unsnoozed: 'unsnoozed',
};

const RANK = ['on the failing path', 'same area', 'elsewhere'] as const;

/**
 * A Markdown incident timeline of one cluster, ready to paste into a postmortem: a table of
 * the findings (first seen, last seen, resolved), then one chronological table of everything — each
 * finding opened / changed / resolved (from the alert state), what changed since the last healthy scan,
 * and who proposed, approved, rejected and ran which fix with what result (from the audit trail) — then
 * the latest "what changed" list in full. Every piece of text that came from a cluster, an API error or a
 * user, and every stored field (severity, change kinds, counts) goes through escapeMarkdown. Pure: the CLI
 * (`k8s-health timeline`) and the alert thread's "Export timeline" button render through this one function.
 */
export function renderTimeline(input: TimelineInput): string {
  const after = (t: string | undefined) => !!t && (!input.since || Date.parse(t) >= Date.parse(input.since));
  const out: string[] = [];
  out.push(`# Incident timeline: ${md(input.cluster, 100)}`);
  out.push('');
  out.push(
    `Generated ${md(input.generatedAt)} by k8s-health-bot from its records (alert state, change log, audit trail)${input.since ? `, since ${md(input.since)}` : ''}. Times are UTC.`,
  );
  out.push('');

  const incidents = [...input.incidents]
    .filter((i) => after(i.lastSeenAt) || after(i.resolvedAt) || after(i.openedAt))
    .sort((a, b) => a.openedAt.localeCompare(b.openedAt) || a.finding.id.localeCompare(b.finding.id));
  pushTable(
    out,
    'Findings',
    'No alerting finding in this period.',
    ['finding', 'severity', 'subject', 'first seen', 'last seen', 'resolved'],
    incidents.map(
      (i) =>
        `| ${code(i.finding.id)} ${md(i.finding.title, 160)} | ${md(i.severity, 20)} | ${subjectOf(i.finding.subject)} | ${md(i.openedAt)} | ${md(i.lastSeenAt)} | ${i.resolvedAt ? md(i.resolvedAt) : 'open'} |`,
    ),
  );
  out.push('');

  const rows: Row[] = [];
  for (const i of incidents) {
    for (const c of i.changes) {
      if (!after(c.at)) continue;
      rows.push({ at: c.at, order: 1, text: describeIncidentChange(i, c) });
    }
  }
  const changes = [...input.changes].filter((c) => after(c.at)).sort((a, b) => a.at.localeCompare(b.at));
  for (const c of changes) {
    const top = c.changes.slice(0, 3).map((x) => `${describeChange(x)} (${rankOf(x.rank)})`);
    const n = c.changes.length + countOf(c.more);
    rows.push({
      at: c.at,
      order: 0,
      text: `**what changed** since last healthy at ${md(c.baselineAt)}: ${md(n)} change${n === 1 ? '' : 's'}${top.length ? ` — ${top.join('; ')}${n > top.length ? '; …' : ''}` : ''}`,
    });
  }
  for (const e of input.audit) {
    if (!after(e.at) || e.cluster !== input.cluster) continue;
    rows.push({ at: e.at, order: 2, text: describeAudit(e) });
  }
  rows.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.order - b.order || a.text.localeCompare(b.text));
  pushTable(
    out,
    'Timeline',
    'Nothing recorded in this period.',
    ['time (UTC)', 'what happened'],
    rows.map((r) => `| ${md(r.at)} | ${r.text} |`),
  );

  const latest = changes.at(-1);
  if (latest) {
    out.push('');
    out.push(`## What changed since last healthy (${md(latest.baselineAt)} → ${md(latest.at)})`);
    out.push('');
    for (const c of latest.changes)
      out.push(`- ${rankOf(c.rank)}: ${describeChange(c)}${c.why ? ` — ${md(c.why)}` : ''}`);
    if (countOf(latest.more)) out.push(`- … and ${countOf(latest.more)} more`);
  }
  return `${out.join('\n')}\n`;
}

/** A stored rank as its words; a rank that is not one of ours is shown neutralized. */
function rankOf(rank: unknown): string {
  return typeof rank === 'number' && RANK[rank] ? RANK[rank] : md(rank, 20);
}

/** A stored count; anything but a non-negative integer counts as none. */
function countOf(n: unknown): number {
  return Number.isSafeInteger(n) && (n as number) > 0 ? (n as number) : 0;
}

function code(id: string): string {
  // Finding and action ids are ours ([a-z.-]), but never trust a stored string to be one.
  return /^[a-z0-9.-]+$/.test(id) ? `\`${id}\`` : md(id);
}

function subjectOf(s: { kind: string; namespace?: string; name: string }): string {
  return md(`${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`, 160);
}

function describeChange(c: ClusterChange): string {
  return `${md(c.kind, 60)} ${md(`${c.namespace ? `${c.namespace}/` : ''}${c.name}`, 120)}: ${md(c.detail, 200)}`;
}

/** One alert-state change in words (alerts/incident.ts: the change as data). */
function describeIncidentChange(i: Incident, c: AlertChange): string {
  const id = code(i.finding.id);
  const subject = subjectOf(i.finding.subject);
  if (c.kinds.includes('opened'))
    return `**opened** ${id} (${md(i.finding.severity, 20)}) on ${subject}: ${md(i.finding.title, 200)}`;
  if (c.kinds.includes('resolved')) return `**resolved** ${id} on ${subject}`;
  const lines = c.details.flatMap(describeDetail).slice(0, 4);
  return `**${c.kinds.includes('reopened') ? 'reopened' : 'changed'}** ${id} on ${subject} (${md(c.kinds.join(', '), 120)})${lines.length ? `: ${lines.map((l) => md(l, 200)).join('; ')}` : ''}`;
}

/** A change's detail as plain lines (escaped by the caller). */
function describeDetail(d: AlertChangeDetail): string[] {
  switch (d.kind) {
    case 'reopened':
      return [`Back again ${formatAge(d.resolvedForMs)} after it was resolved — this thread is open again.`];
    case 'severity':
      return [
        `Severity ${SEVERITY_ORDER.indexOf(d.to) < SEVERITY_ORDER.indexOf(d.from) ? 'raised' : 'lowered'}: ${d.from} → ${d.to}`,
      ];
    case 'recreation':
      return [`Recreation counted again: ${d.from} → ${d.to} machine replacements`];
    case 'evidence':
      return ['New evidence:', ...d.lines, ...(d.more > 0 ? [`+${d.more} more`] : [])];
    case 'related':
      return d.findings.map(
        (r) => `${r.relation === 'symptom' ? 'New symptom' : 'Related finding'}: ${r.severity} ${r.title} (${r.id})`,
      );
    case 'merged':
      return [`A symptom of ${d.title} (${d.id}): followed in that thread from now on`];
    case 'paused':
      return [`Remediation still paused on MachineHealthCheck ${d.mhc}`];
    default:
      return [];
  }
}

const SEVERITY_ORDER = ['critical', 'warning', 'info'];

function describeAudit(e: AuditEvent): string {
  const who = e.user ? ` by ${md(e.user, 40)}` : '';
  const detail = e.detail ? ` — ${md(e.detail, 300)}` : '';
  return `**${Object.hasOwn(AUDIT_WORD, e.event) ? AUDIT_WORD[e.event] : md(e.event, 20)}** ${code(e.action)}${who} (request ${md(e.requestId, 40)})${detail}`;
}

/** A `## title` section holding a Markdown table (header and rendered rows), or `empty` when there are no rows. */
function pushTable(out: string[], title: string, empty: string, header: string[], rows: string[]): void {
  out.push(`## ${title}`, '');
  if (!rows.length) {
    out.push(empty);
    return;
  }
  out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`, ...rows);
}
