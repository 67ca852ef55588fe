import type { types } from '@slack/bolt';
import { formatAge } from '../diagnose/facts/age.js';
import { describeCauseChain, findRootCauses } from './find-root-causes.js';
import { SECTION_TITLES, type Finding, type SectionId, type Severity } from '../diagnose/finding.js';
import type { HealthStatus, Report } from './report.js';
import { clampBlocks, truncate, type SlackMessage } from '../slack/clamp-blocks.js';
import { proposeFixActionId } from '../slack/action-ids.js';

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
  /** One extra line under the header, e.g. "fresh scan failed: …". */
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
    { type: 'header', text: { type: 'plain_text', text: `${report.cluster}${sectionTitle ? ` · ${sectionTitle}` : ''}: ${status}`, emoji: true } },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `${STATUS_EMOJI[status]} ${asOf} (${age === undefined ? 'no meta.json and no timestamp in the data' : `${report.collectedAtFrom === 'data' ? 'inferred from the newest timestamp in the data: ' : 'collected '}${report.collectedAt}`})${opts.stale ? ' · :hourglass_flowing_sand: *stale*, refreshing…' : ''}`,
        },
      ],
    },
  ];
  if (opts.note) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: escapeMrkdwn(opts.note) } });
  if (sections.length > 0) {
    const lines = sections.map((s) => `${STATUS_EMOJI[s.status]} *${SECTION_TITLES[s.id]}* — ${s.status} · ${escapeMrkdwn(s.summary)}`);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } });
  } else if (opts.section) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `No data for section *${sectionTitle}* in this report.` } });
  }
  if (report.partial.length > 0) {
    const parts = report.partial.slice(0, 3).map((p) => `${escapeMrkdwn(p.source)}: ${escapeMrkdwn(p.error)}`);
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
      elements: [{ type: 'mrkdwn', text: `+${rest} more finding${rest === 1 ? '' : 's'} — \`k8s-health check --cluster ${report.cluster}\` lists them all` }],
    });
  } else if (shown.length === 0) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: ':white_check_mark: No findings.' }] });
  }

  const counts = countBySeverity(shown);
  const text = `${report.cluster}${sectionTitle ? ` ${sectionTitle}` : ''}: ${status} — ${counts} (${asOf}${opts.stale ? ', stale, refreshing' : ''})`;
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
  const lines = [`${SEVERITY_EMOJI[f.severity]} *${escapeMrkdwn(f.title)}*`, `\`${f.id}\` · ${escapeMrkdwn(subject)}`];
  if (f.cause) lines.push(`*Cause:* ${escapeMrkdwn(f.cause)}`);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length) {
    lines.push(`*Confidence:* ${f.confidence}${f.missing?.length ? ` — missing: ${escapeMrkdwn(truncate(f.missing.join('; '), 300))}` : ''}`);
  }
  const chain = findRootCauses(f, all);
  if (chain.length) lines.push(`*Caused by:* ${escapeMrkdwn(describeCauseChain(chain))}`);
  for (const e of f.evidence.slice(0, MAX_EVIDENCE_LINES)) lines.push(`> ${escapeMrkdwn(truncate(e, 400))}`);
  if (f.evidence.length > MAX_EVIDENCE_LINES) lines.push(`> _+${f.evidence.length - MAX_EVIDENCE_LINES} more evidence lines_`);
  if (f.steps?.length) lines.push(`*Steps (by hand):* ${f.steps.map((step, i) => `${i + 1}. ${escapeMrkdwn(truncate(step, 300))}`).join('\n')}`);
  const out: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }];

  const buttons: types.Button[] = [];
  const asText: string[] = [];
  f.remediations.forEach((r, i) => {
    const id = proposalIds?.[proposalKey(f, i)];
    if (id) buttons.push({ type: 'button', action_id: proposeFixActionId(i), text: { type: 'plain_text', text: r.label, emoji: true }, value: id });
    else asText.push(`:wrench: Proposed fix: ${escapeMrkdwn(r.label)} — risk: ${escapeMrkdwn(r.risk)}`);
  });
  if (buttons.length > 0) {
    out.push({ type: 'actions', block_id: `fix:${f.fingerprint}`.slice(0, 255), elements: buttons });
    const risks = f.remediations.map((r) => `:wrench: ${escapeMrkdwn(r.label)} — risk: ${escapeMrkdwn(r.risk)}`);
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

/** Slack mrkdwn control characters (api.slack.com "Escaping text"). */
function escapeMrkdwn(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
