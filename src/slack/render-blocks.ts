import type { types } from '@slack/bolt';
import { formatAge } from '../diagnose/facts/age.js';
import { describeCauseChain, findRootCauses } from '../report/find-root-causes.js';
import { SECTION_TITLES, type Finding, type SectionId, type Severity } from '../diagnose/finding.js';
import type { HealthStatus, Report } from '../report/report.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { proposeFixActionId } from './action-ids.js';
import { neutralizeMrkdwn as md, neutralizeSlackPlainText } from '../text/neutralize-mrkdwn.js';

type KnownBlock = types.KnownBlock;

/** Options of {@link renderBlocks}. */
export interface RenderBlocksOptions {
  /** The clock: the data's age ("as of 40 s ago") is `now - report.collectedAt`. */
  now: Date;
  /** Only this section's line and findings (`/k8s-health CLUSTER SECTION`). */
  section?: SectionId;
  /** The report is older than scan.freshSeconds and a fresh scan is on its way. */
  stale?: boolean;
  /**
   * Opaque proposal ids keyed by {@link proposalKey}. A remediation with an id becomes a button
   * whose value is only that id; without one (e.g. `check --output blocks`) it is shown as text.
   */
  proposalIds?: Readonly<Record<string, string>>;
  /** How many findings are shown in detail (default 5); the rest are counted in a "+N more" line. */
  maxFindings?: number;
  /** One extra line under the header, e.g. "fresh scan failed: …"; shown as untrusted text (emoji codes still render). */
  note?: string;
}

/** The key of a finding's n-th remediation in {@link RenderBlocksOptions.proposalIds}. */
export function proposalKey(finding: Pick<Finding, 'fingerprint'>, index: number): string {
  return `${finding.fingerprint}#${index}`;
}

const STATUS_EMOJI: Record<HealthStatus, string> = {
  healthy: ':large_green_circle:',
  degraded: ':large_yellow_circle:',
  critical: ':red_circle:',
  unknown: ':white_circle:',
};

const SEVERITY_EMOJI: Record<Severity, string> = { critical: ':red_circle:', warning: ':warning:', info: ':information_source:' };

const MAX_EVIDENCE_LINES = 4;

/**
 * A report as a Slack message (pure): header with cluster and status, the data's age, one line per
 * section, the worst findings with cause, evidence and proposed fixes, clamped to Slack's limits.
 * Every value that came from the cluster (names, messages, times, partial errors; even the cluster
 * name, which a dump's meta.json can set) goes through the neutralizer (neutralize-mrkdwn.ts) or
 * into plain_text, so it can never mention, link, restyle or add a line.
 */
export function renderBlocks(report: Report, opts: RenderBlocksOptions): SlackMessage {
  const collected = Date.parse(report.collectedAt);
  // An unknown capture time has no age: say so rather than print "NaN" (issue 13 defect class 8).
  const age = Number.isNaN(collected) ? undefined : formatAge(opts.now.getTime() - collected);
  const asOf = age === undefined ? 'capture time unknown' : `as of ${age} ago`;
  const sections = opts.section ? report.sections.filter((s) => s.id === opts.section) : report.sections;
  const shown = opts.section ? report.findings.filter((f) => f.section === opts.section) : report.findings;
  const sectionTitle = opts.section ? SECTION_TITLES[opts.section] : undefined;
  const status = opts.section ? (sections[0]?.status ?? 'unknown') : report.status;

  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: `${neutralizeSlackPlainText(report.cluster, { max: 100 })}${sectionTitle ? ` · ${sectionTitle}` : ''}: ${status}`, emoji: true } },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          // collectedAt comes from meta.json or the newest timestamp in the data: untrusted text like the rest.
          text: `${STATUS_EMOJI[status]} ${asOf} (${age === undefined ? 'no meta.json and no timestamp in the data' : `${report.collectedAtFrom === 'data' ? 'inferred from the newest timestamp in the data: ' : 'collected '}${md(report.collectedAt, { max: 40 })}`})${opts.stale ? ' · :hourglass_flowing_sand: *stale*, refreshing…' : ''}`,
        },
      ],
    },
  ];
  if (opts.note) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: md(opts.note, { max: 1000 }) } });
  if (sections.length > 0) {
    const lines = sections.map((s) => `${STATUS_EMOJI[s.status]} *${SECTION_TITLES[s.id]}* — ${s.status} · ${md(s.summary, { max: 300 })}`);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } });
  } else if (opts.section) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `No data for section *${sectionTitle}* in this report.` } });
  }
  if (report.partial.length > 0) {
    const parts = report.partial.slice(0, 3).map((p) => `${md(p.source, { max: 200 })}: ${md(p.error, { max: 400 })}`);
    const more = report.partial.length > 3 ? ` (+${report.partial.length - 3} more)` : '';
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `:warning: Partial data — ${parts.join('; ')}${more}` }] });
  }

  const detailed = detailedFindings(report, opts);
  if (detailed.length > 0) blocks.push({ type: 'divider' });
  for (const f of detailed) blocks.push(...renderFinding(f, report.findings, opts.proposalIds));
  const rest = shown.length - detailed.length;
  if (rest > 0) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `+${rest} more finding${rest === 1 ? '' : 's'} — \`k8s-health check --cluster ${md(report.cluster, { max: 100 })}\` lists them all` }],
    });
  } else if (shown.length === 0) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: ':white_check_mark: No findings.' }] });
  }

  const counts = countBySeverity(shown);
  const text = `${md(report.cluster, { max: 100 })}${sectionTitle ? ` ${sectionTitle}` : ''}: ${status} — ${counts} (${asOf}${opts.stale ? ', stale, refreshing' : ''})`;
  return clampBlocks({ text, blocks });
}

/**
 * The findings {@link renderBlocks} shows in detail: worst first (the report is already sorted),
 * info findings only when nothing worse is there. Callers store proposals for exactly these.
 */
export function detailedFindings(report: Report, opts: Pick<RenderBlocksOptions, 'section' | 'maxFindings'>): Finding[] {
  const shown = opts.section ? report.findings.filter((f) => f.section === opts.section) : report.findings;
  const problems = shown.filter((f) => f.severity !== 'info');
  return (problems.length > 0 ? problems : shown).slice(0, opts.maxFindings ?? 5);
}

function renderFinding(f: Finding, all: readonly Finding[], proposalIds: RenderBlocksOptions['proposalIds']): KnownBlock[] {
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  const lines = [`${SEVERITY_EMOJI[f.severity]} *${md(f.title, { max: 300 })}*`, `\`${md(f.id, { max: 80 })}\` · ${md(subject, { max: 300 })}`];
  if (f.cause) lines.push(`*Cause:* ${md(f.cause, { max: 1000 })}`);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length) {
    lines.push(`*Confidence:* ${md(f.confidence ?? 'high', { max: 10 })}${f.missing?.length ? ` — missing: ${md(f.missing.join('; '), { max: 300 })}` : ''}`);
  }
  const chain = findRootCauses(f, all);
  if (chain.length) lines.push(`*Caused by:* ${md(describeCauseChain(chain), { max: 500 })}`);
  for (const e of f.evidence.slice(0, MAX_EVIDENCE_LINES)) lines.push(`> ${md(e, { max: 400 })}`);
  if (f.evidence.length > MAX_EVIDENCE_LINES) lines.push(`> _+${f.evidence.length - MAX_EVIDENCE_LINES} more evidence lines_`);
  if (f.steps?.length) lines.push(`*Steps (by hand):* ${f.steps.map((step, i) => `${i + 1}. ${md(step, { max: 300 })}`).join('\n')}`);
  const out: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }];

  const buttons: types.Button[] = [];
  const asText: string[] = [];
  f.remediations.forEach((r, i) => {
    const id = proposalIds?.[proposalKey(f, i)];
    if (id) buttons.push({ type: 'button', action_id: proposeFixActionId(i), text: { type: 'plain_text', text: neutralizeSlackPlainText(r.label, { max: 75 }), emoji: true }, value: id });
    else asText.push(`:wrench: Proposed fix: ${md(r.label, { max: 200 })} — risk: ${md(r.risk, { max: 300 })}`);
  });
  if (buttons.length > 0) {
    out.push({ type: 'actions', block_id: `fix:${f.fingerprint}`.slice(0, 255), elements: buttons });
    const risks = f.remediations.map((r) => `:wrench: ${md(r.label, { max: 200 })} — risk: ${md(r.risk, { max: 300 })}`);
    out.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${risks.join('\n')}\n_Every fix needs two approvals before it runs._` }] });
  } else if (asText.length > 0) {
    out.push({ type: 'context', elements: [{ type: 'mrkdwn', text: asText.join('\n') }] });
  }
  return out;
}

function countBySeverity(findings: Finding[]): string {
  const n = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const parts = [`${n('critical')} critical`, `${n('warning')} warning`];
  if (n('info') > 0) parts.push(`${n('info')} info`);
  return parts.join(', ');
}
