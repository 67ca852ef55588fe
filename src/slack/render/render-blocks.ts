import type { types } from '@slack/bolt';
import { findRootCauses } from '../../report/find-root-causes.js';
import { SECTION_TITLES, type Finding, type SectionId, type Severity } from '../../diagnose/finding.js';
import type { HealthStatus, Report } from '../../report/report.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { DETAILS_ACTION_ID } from '../action-ids.js';
import { renderFixButtons } from './render-fix-buttons.js';
import {
  neutralizeMrkdwn as md,
  neutralizeMrkdwnWord,
  neutralizeSlackPlainText,
} from '../../text/neutralize-mrkdwn.js';
import { slackDate } from './slack-date.js';
import { runbookUrl } from './runbook-url.js';
import { atScanTime } from './at-scan-time.js';
import { estimateLines } from './estimate-lines.js';
import { withoutRepeatedClauses } from './without-repeated-clauses.js';
import { splitTitle } from './split-title.js';

type KnownBlock = types.KnownBlock;

/** Options of {@link renderBlocks} (and of the Details message, render-details.ts). */
export interface RenderBlocksOptions {
  /**
   * The clock of the caller. Not used for any age: every time in the message is an absolute Slack date
   * token (slack-date.ts), so a message edited later never keeps a stale "4m ago".
   */
  now?: Date;
  /** Only this section's line and findings (`/k8s-health CLUSTER SECTION`). */
  section?: SectionId;
  /** The report is older than scan.freshSeconds and a fresh scan is on its way. */
  stale?: boolean;
  /**
   * Opaque proposal ids keyed by {@link proposalKey}. A root cause's fix with an id becomes a button
   * whose value is only that id; without one (e.g. `check --output blocks`) it is shown as text.
   */
  proposalIds?: Readonly<Record<string, string>>;
  /** Fixes that already ran (ISO time) keyed by {@link proposalKey}: shown as done, never as a button. */
  ranFixes?: Readonly<Record<string, string>>;
  /** At most this many root causes on the card (default: as many as {@link CARD_LINE_BUDGET} allows). */
  maxFindings?: number;
  /**
   * One extra line under the header, e.g. "fresh scan failed: …"; shown as untrusted text (emoji codes still render).
   */
  note?: string;
  /** `slack.runbookBaseUrl`: each finding links its section of docs/diagnosis.md there. */
  runbookBaseUrl?: string;
}

/**
 * Lines the card may take on a 360 px wide phone, Details button included: one screen. Counted as
 * rendered (estimate-lines.ts: wrapped text, button rows, block margins), so a long title costs what
 * it shows; the sandbox's browser test measures the real height against the same number.
 */
export const CARD_LINE_BUDGET = 12;

/** The key of a finding's n-th remediation in {@link RenderBlocksOptions.proposalIds}. */
export function proposalKey(finding: Pick<Finding, 'fingerprint'>, index: number): string {
  return `${finding.fingerprint}#${index}`;
}

export const STATUS_EMOJI: Record<HealthStatus, string> = {
  healthy: ':large_green_circle:',
  degraded: ':large_yellow_circle:',
  critical: ':red_circle:',
  unknown: ':white_circle:',
};

/** A health status as shown: our word, or the neutralized text of whatever else was stored. */
export function statusWord(status: unknown): string {
  return neutralizeMrkdwnWord(status, Object.keys(STATUS_EMOJI));
}

/** The emoji of a status word (a white circle for anything that is not one of ours). */
export function statusEmoji(status: string): string {
  return Object.hasOwn(STATUS_EMOJI, status) ? STATUS_EMOJI[status as HealthStatus] : ':white_circle:';
}

export const SEVERITY_EMOJI: Record<Severity, string> = {
  critical: ':red_circle:',
  warning: ':warning:',
  info: ':information_source:',
};

/** What the card shows, worked out once for the renderer and for the caller that stores proposals. */
export interface CardPlan {
  /** The findings in view (one section's, or all). */
  shown: Finding[];
  /** Warning and critical findings in view. */
  problems: Finding[];
  /** Problems with no cause among the problems in view, worst first: one card line each. */
  roots: Finding[];
  /** The roots that fit on the card. */
  onCard: Finding[];
  /** For each root (by fingerprint), the problems in view it causes (its symptoms). */
  symptomsOf: Map<string, Finding[]>;
}

/**
 * Which root causes the card shows (pure). A root cause is a warning or critical finding that no other
 * problem in view causes (`causedBy`); every other problem is a symptom of one and lives in Details.
 * Roots are added worst first while the card stays within {@link CARD_LINE_BUDGET}.
 */
export function planCard(
  report: Report,
  opts: Pick<RenderBlocksOptions, 'section' | 'maxFindings' | 'note'>,
): CardPlan {
  const shown = opts.section ? report.findings.filter((f) => f.section === opts.section) : report.findings;
  const problems = shown.filter((f) => f.severity !== 'info');
  const roots = problems.filter((f) => findRootCauses(f, problems).length === 0);
  const symptomsOf = new Map<string, Finding[]>(roots.map((r) => [r.fingerprint, []]));
  for (const f of problems) {
    const chain = findRootCauses(f, problems);
    const root = chain[chain.length - 1];
    if (root) symptomsOf.get(root.fingerprint)?.push(f);
  }
  // The card without roots (header, scan time, note, partial, Details) is fixed; each root costs the
  // lines it renders with every fix a button; a line is kept for "+N more" whenever not every root fits.
  // The first root is always shown: a card that names no cause would say less than one that scrolls.
  const plan: CardPlan = { shown, problems, roots, onCard: [], symptomsOf };
  let used = estimateLines(cardBlocks(report, plan, opts));
  const max = opts.maxFindings ?? Infinity;
  for (const [i, r] of roots.entries()) {
    const ids = Object.fromEntries(r.remediations.map((_, n) => [proposalKey(r, n), 'p']));
    const cost = estimateLines(renderRoot(r, report, { ...opts, proposalIds: ids }));
    const moreLine = i < roots.length - 1 ? 1 : 0;
    if (plan.onCard.length >= max || (plan.onCard.length > 0 && used + cost + moreLine > CARD_LINE_BUDGET)) break;
    plan.onCard.push(r);
    used += cost;
  }
  return plan;
}

/** The findings whose fix is a button on the card: the caller stores a proposal for each, exactly. */
export function detailedFindings(
  report: Report,
  opts: Pick<RenderBlocksOptions, 'section' | 'maxFindings' | 'note'>,
): Finding[] {
  return planCard(report, opts).onCard;
}

/**
 * The `/k8s-health` answer (pure), card first: the cluster and its state, when it was
 * scanned, then one entry per root cause — what is wrong, since when, why in one sentence, a runbook
 * link and its one proposed fix as a button — within {@link CARD_LINE_BUDGET} lines, then the Details
 * button (sections, symptoms, evidence: render-details.ts) and one small context line with the
 * finding ids. Times are Slack date tokens, never ages. `check --output blocks` prints this very
 * message. Every value that came from the cluster (names, messages, times, partial errors; even the
 * cluster name, which a dump's meta.json can set) goes through the neutralizer (neutralize-mrkdwn.ts)
 * or into plain_text, so it can never mention, link, restyle or add a line.
 */
export function renderBlocks(report: Report, opts: RenderBlocksOptions): SlackMessage {
  const plan = planCard(report, opts);
  const sectionTitle = opts.section ? SECTION_TITLES[opts.section] : undefined;
  const status = cardStatus(report, opts);
  const blocks = cardBlocks(report, plan, opts);
  // The roots go after the fixed lines, before the Details button.
  const details = blocks.pop()!;
  for (const f of plan.onCard) blocks.push(...renderRoot(f, report, opts));
  // What is behind Details, in one small line: the symptoms of the roots shown, and the roots that did not fit.
  const hidden = plan.roots.length - plan.onCard.length;
  const symptoms = plan.onCard.reduce((n, r) => n + (plan.symptomsOf.get(r.fingerprint)?.length ?? 0), 0);
  const behind = [
    ...(symptoms > 0
      ? [`${symptoms} symptom${symptoms === 1 ? '' : 's'} of ${plan.onCard.length === 1 ? 'it' : 'these'}`]
      : []),
    ...(hidden > 0 ? [`${hidden} more root cause${hidden === 1 ? '' : 's'}`] : []),
  ];
  if (behind.length > 0)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `+${behind.join(' and ')} in Details` }] });
  blocks.push(details);

  const unknownCapture = report.collectedAtFrom === 'unknown' || !slackDate(report.collectedAt);
  const text = `${md(report.cluster, { max: 100 })}${sectionTitle ? ` ${sectionTitle}` : ''}: ${status} — ${countBySeverity(plan.shown)} (scanned ${slackDate(report.generatedAt) ?? 'at an unknown time'}${unknownCapture ? ', capture time unknown' : ''})`;
  return clampBlocks({ text, blocks });
}

/** The status the card shows: the section's in a section view. */
function cardStatus(report: Report, opts: RenderBlocksOptions): string {
  const sections = opts.section ? report.sections.filter((s) => s.id === opts.section) : report.sections;
  // A stored report is read back from Redis (untrusted): its status is shown as one of our
  // words, or neutralized when it is anything else.
  return statusWord(opts.section ? (sections[0]?.status ?? 'unknown') : report.status);
}

/**
 * The card's fixed blocks, in order: header, scan time, note, the no-problem or partial line, and the Details button
 * last.
 */
function cardBlocks(report: Report, plan: CardPlan, opts: RenderBlocksOptions): KnownBlock[] {
  const sectionTitle = opts.section ? SECTION_TITLES[opts.section] : undefined;
  const sections = opts.section ? report.sections.filter((s) => s.id === opts.section) : report.sections;
  const status = cardStatus(report, opts);
  const scanned = describeCardScanTime(report);
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: `${neutralizeSlackPlainText(report.cluster, { max: 100 })}${sectionTitle ? ` · ${sectionTitle}` : ''}: ${status}`,
        emoji: true,
      },
    },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `${statusEmoji(status)} ${scanned}${opts.stale ? ' · :hourglass_flowing_sand: *stale*, refreshing…' : ''}`,
        },
      ],
    },
  ];
  if (opts.note) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: md(opts.note, { max: 500 }) } });
  if (plan.problems.length === 0) {
    const checked = sections.length;
    const notes = plan.shown.length;
    const what =
      opts.section && checked === 0
        ? `No data for section *${sectionTitle}* in this report.`
        : `:white_check_mark: No problems found in ${checked} section${checked === 1 ? '' : 's'}${notes > 0 ? ` · ${notes} note${notes === 1 ? '' : 's'} in Details` : ''}.`;
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: what } });
  }
  if (report.partial.length > 0) {
    const n = report.partial.length;
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `:warning: Partial data: ${n} source${n === 1 ? '' : 's'} could not be read (in Details).`,
        },
      ],
    });
  }
  // Finding ids live in Details (its last context line): the card names what is wrong in words.
  blocks.push({
    type: 'actions',
    block_id: 'details',
    elements: [
      {
        type: 'button',
        action_id: DETAILS_ACTION_ID,
        text: { type: 'plain_text', text: 'Details' },
        value: detailsValue(report.cluster, opts.section),
      },
    ],
  });
  return blocks;
}

/** The Details button's value: what `/k8s-health` was asked (cluster and section), checked again on click. */
export function detailsValue(cluster: string, section?: SectionId): string {
  return section ? `${cluster} ${section}` : cluster;
}

/**
 * "scanned <date> · data from <date>": when the report was made and when its data was captured,
 * as date tokens. The capture time comes from meta.json or the newest timestamp in the data
 * (untrusted), so only a parsable time becomes a token; otherwise it says it is unknown.
 */
export function describeScanTime(report: Pick<Report, 'generatedAt' | 'collectedAt' | 'collectedAtFrom'>): string {
  const scanned = slackDate(report.generatedAt);
  const collected = report.collectedAtFrom === 'unknown' ? undefined : slackDate(report.collectedAt);
  const data = collected
    ? `data ${report.collectedAtFrom === 'data' ? 'as of (newest timestamp in it)' : 'collected'} ${collected}`
    : 'capture time unknown (no meta.json and no timestamp in the data)';
  return `${scanned ? `scanned ${scanned}` : 'scan time unknown'} · ${data}`;
}

/**
 * The card's scan time: "scanned <date>", and the data's capture time only when it says something
 * more — captured at another minute, inferred from the data, or unknown (Details has it always).
 */
export function describeCardScanTime(report: Pick<Report, 'generatedAt' | 'collectedAt' | 'collectedAtFrom'>): string {
  const generated = Date.parse(report.generatedAt);
  const collected = Date.parse(report.collectedAt);
  const sameMinute =
    report.collectedAtFrom !== 'data' &&
    report.collectedAtFrom !== 'unknown' &&
    Math.floor(generated / 60_000) === Math.floor(collected / 60_000);
  if (!sameMinute || Number.isNaN(generated)) return describeScanTime(report);
  return `scanned ${slackDate(report.generatedAt)}`;
}

/** "since <date>" (the problem's own start), "first seen <date>" (the first scan that saw it), or "since: unknown". */
export function describeSince(f: Pick<Finding, 'since' | 'firstSeen'>): string {
  const since = slackDate(f.since);
  if (since) return `since ${since}`;
  const first = slackDate(f.firstSeen);
  return first ? `first seen ${first}` : 'since: unknown';
}

/** Characters of the card's why sentence (a phone shows about four lines of it). */
const WHY_MAX = 220;

/** The whole why: the cause the data shows, else the first evidence line (ages restated as before the scan). */
export function fullWhy(f: Finding): string {
  return atScanTime(f.cause ?? f.evidence[0] ?? f.title);
}

/** The why without the clauses the title already says ('' when the title says it all). */
export function newWhy(f: Finding): string {
  return withoutRepeatedClauses(fullWhy(f), atScanTime(f.title)) ?? '';
}

/**
 * Why, in one sentence that reads on a phone: the cause the data shows (else the first evidence line)
 * less what the title already says, up to its first sentence end or dash aside; the whole text is in
 * Details. Empty when the title says it all.
 */
export function whySentence(f: Finding): string {
  const text = newWhy(f);
  if (!text) return '';
  const end = /\.\s|\s—\s/.exec(text);
  const sentence = end && end.index >= 40 ? `${text.slice(0, end.index)}.` : text;
  if (sentence.length <= WHY_MAX) return md(sentence, { max: WHY_MAX });
  // Still long: end at the last clause boundary that fits rather than in the middle of a word.
  const clause = Math.max(sentence.lastIndexOf(', ', WHY_MAX - 1), sentence.lastIndexOf('; ', WHY_MAX - 1));
  return md(clause >= 60 ? `${sentence.slice(0, clause)}…` : sentence, { max: WHY_MAX });
}

/** A root cause's why on the card: the rest of its title when the title has one, else {@link whySentence}. */
export function rootWhy(f: Finding): string {
  const rest = splitTitle(atScanTime(f.title)).rest;
  return rest ? md(rest, { max: WHY_MAX }) : whySentence(f);
}

function renderRoot(f: Finding, report: Report, opts: RenderBlocksOptions): KnownBlock[] {
  // In a section view a root may still have a cause in another section: name it instead of its own why.
  const outside = findRootCauses(f, report.findings);
  const deepest = outside[outside.length - 1];
  // The title's headline is the line in bold; the rest of the title is the why (each fact once).
  const title = splitTitle(atScanTime(f.title));
  const why = deepest
    ? `caused by ${md(atScanTime(deepest.title), { max: 200 })} (${SECTION_TITLES[deepest.section]})`
    : rootWhy(f);
  const lines = [
    `${SEVERITY_EMOJI[f.severity]} *${md(title.head, { max: 200 })}* · <${runbookUrl(f.id, opts.runbookBaseUrl)}|runbook>`,
    `${describeSince(f)}${why ? ` — ${why}` : ''}`,
  ];
  const fix = f.remediations[0];
  // Every fix with a stored proposal is something to press (buttons, an overflow menu beyond two);
  // a fix that already ran is said done instead.
  const fixes = f.remediations.flatMap((r, index) => {
    const id = opts.proposalIds?.[proposalKey(f, index)];
    return id && !opts.ranFixes?.[proposalKey(f, index)] ? [{ index, label: r.label, id }] : [];
  });
  const ran = f.remediations.flatMap((r, index) => {
    const at = opts.ranFixes?.[proposalKey(f, index)];
    return at ? [`:white_check_mark: ${md(r.label, { max: 200 })} ran ${slackDate(at) ?? 'earlier'}`] : [];
  });
  if (ran.length > 0) lines.push(ran.join(' · '));
  else if (fix && fixes.length === 0)
    lines.push(`:wrench: Fix: ${md(fix.label, { max: 200 })} (propose it from Slack: two approvals before it runs)`);
  const out: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }];
  // One button, the other fixes in its overflow menu: two long labels would take a phone's screen.
  if (fixes.length > 0)
    out.push({
      type: 'actions',
      block_id: `fix:${f.fingerprint}`.slice(0, 255),
      elements: renderFixButtons(fixes, { buttons: 1 }),
    });
  return out;
}

export function countBySeverity(findings: readonly Finding[]): string {
  const n = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const parts = [`${n('critical')} critical`, `${n('warning')} warning`];
  if (n('info') > 0) parts.push(`${n('info')} info`);
  return parts.join(', ');
}
