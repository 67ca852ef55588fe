import { SECTION_IDS, SECTION_TITLES, SEVERITY_RANK, type Finding, type SectionId } from '../diagnose/finding.js';
import { describeCauseChain, findRootCauses } from './find-root-causes.js';
import { formatMemberId } from '../diagnose/facts/format-member-id.js';
import { describeCaptureTime } from './describe-capture-time.js';
import { ageOf } from './age-of.js';
import { neutralizePlainText as t } from '../text/neutralize-plain-text.js';
import type { ChangesSinceHealthy } from '../diagnose/changes/cluster-fingerprint.js';
import type { HealthStatus, Report } from './report.js';

const MARK: Record<HealthStatus, string> = { critical: '✖', degraded: '▲', healthy: '✔', unknown: '?' };

export interface RenderTextOptions {
  /** Wall clock, for the data's age. */
  now: Date;
  /** Show only this section. */
  section?: SectionId;
  /** Evidence lines per finding (default all). */
  maxEvidence?: number;
}

/**
 * Terminal text: status line, one line per section, then findings grouped per section (worst
 * section first), each with cause, evidence and proposed fixes, then what could not be read.
 * Values from the cluster or a dump go through `neutralizePlainText` (no ANSI sequence, control,
 * bidi or zero-width character reaches the terminal, and none adds a line of its own); they are
 * not shortened: the terminal is where the whole evidence is read.
 */
export function renderText(report: Report, opts: RenderTextOptions): string {
  const out: string[] = [];
  // The capture time comes from meta.json or the newest timestamp in the data: untrusted, like the rest.
  out.push(`${t(report.cluster)}: ${report.status.toUpperCase()}  (${t(describeCaptureTime(report, opts.now))})`);
  out.push('');
  const sections = report.sections.filter((s) => !opts.section || s.id === opts.section);
  const width = Math.max(...sections.map((s) => SECTION_TITLES[s.id].length));
  for (const s of sections) out.push(`  ${MARK[s.status]} ${SECTION_TITLES[s.id].padEnd(width)}  ${t(s.summary)}`);

  const findings = report.findings.filter((f) => !opts.section || f.section === opts.section);
  out.push('');
  if (!findings.length) {
    out.push('No findings.');
  } else {
    const counts = (['critical', 'warning', 'info'] as const)
      .map((sev) => [sev, findings.filter((f) => f.severity === sev).length] as const)
      .filter(([, n]) => n);
    out.push(`Findings: ${counts.map(([sev, n]) => `${n} ${sev}`).join(', ')}`);
    for (const id of orderSections(findings)) {
      out.push('');
      out.push(`── ${SECTION_TITLES[id]} ──`);
      for (const f of findings.filter((x) => x.section === id)) out.push(...renderFinding(f, report, opts));
    }
  }
  if (report.changedSinceHealthy && !opts.section) out.push('', ...renderChanges(report.changedSinceHealthy));
  if (report.partial.length) {
    out.push('');
    out.push(`Not read (${report.partial.length}):`);
    for (const p of report.partial) out.push(`  - ${t(p.source)}: ${t(p.error)}`);
  }
  return out.join('\n') + '\n';
}

function renderFinding(f: Finding, report: Report, opts: RenderTextOptions): string[] {
  const lines: string[] = [];
  const since = f.since ? ageOf(f.since, new Date(report.collectedAt)) : undefined;
  const subject = t(`${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`);
  lines.push(`[${f.severity.toUpperCase()}] ${t(f.title)}`);
  lines.push(
    `    id: ${t(f.id)}   subject: ${subject}${f.since ? `   since: ${t(f.since)}${since ? ` (${since} before collection)` : ''}` : ''}`,
  );
  if (f.cause) lines.push(`    cause: ${t(f.cause)}`);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length)
    lines.push(
      `    confidence: ${t(f.confidence ?? 'high')}${f.missing?.length ? ` (missing: ${t(f.missing.join('; '))})` : ''}`,
    );
  const chain = findRootCauses(f, report.findings);
  if (chain.length) lines.push(`    caused by: ${t(describeCauseChain(chain))}`);
  const evidence = opts.maxEvidence === undefined ? f.evidence : f.evidence.slice(0, opts.maxEvidence);
  if (evidence.length) {
    lines.push('    evidence:');
    for (const e of evidence) lines.push(`      - ${t(e)}`);
    if (evidence.length < f.evidence.length) lines.push(`      (+${f.evidence.length - evidence.length} more)`);
  }
  if (f.steps?.length) {
    lines.push('    steps (by hand, nothing runs automatically):');
    f.steps.forEach((step, i) => lines.push(`      ${i + 1}. ${t(step)}`));
  }
  for (const r of f.remediations) {
    // etcd member ids in hex, as etcdctl prints and takes them (`etcdctl member remove 8211f1d0f64f3269`).
    const params = Object.entries(r.params)
      .map(([k, v]) => `${k}=${/memberid$/i.test(k) ? formatMemberId(String(v)) : v}`)
      .join(' ');
    lines.push(`    fix (needs 2 approvals): ${t(r.label)} [${t(`${r.action}${params ? ` ${params}` : ''}`)}]`);
    lines.push(`      risk: ${t(r.risk)}`);
  }
  return lines;
}

/** Sections that have findings, worst first, then in display order. */
function orderSections(findings: Finding[]): SectionId[] {
  const worst = new Map<SectionId, number>();
  for (const f of findings) worst.set(f.section, Math.min(worst.get(f.section) ?? 9, SEVERITY_RANK[f.severity]));
  return SECTION_IDS.filter((id) => worst.has(id)).sort(
    (a, b) => worst.get(a)! - worst.get(b)! || SECTION_IDS.indexOf(a) - SECTION_IDS.indexOf(b),
  );
}

const RANK_MARK = ['on the failing path', 'same area', 'elsewhere'] as const;

/** "Changed since last healthy at <time>": one line per change, closest to the failing path first. */
export function renderChanges(c: ChangesSinceHealthy): string[] {
  const lines = [`Changed since last healthy at ${t(c.baselineAt)} (closest to what fails now first):`];
  if (!c.changes.length)
    lines.push('  nothing the bot follows changed (webhooks, CRDs, workloads, budgets, Cluster API objects, nodes)');
  for (const ch of c.changes) {
    const obj = `${ch.kind} ${ch.namespace ? `${ch.namespace}/` : ''}${ch.name}`;
    // Names and details come from the cluster: untrusted terminal text.
    lines.push(`  - [${RANK_MARK[ch.rank]}] ${t(obj)}: ${t(ch.detail)}${ch.why ? ` — ${t(ch.why)}` : ''}`);
  }
  if (c.more) lines.push(`  (+${c.more} more)`);
  return lines;
}
