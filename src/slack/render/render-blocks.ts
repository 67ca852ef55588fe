import type { types } from '@slack/bolt';
import { findRootCauses } from '../../report/find-root-causes.js';
import { SECTION_TITLES, type Finding, type SectionId, type Severity } from '../../diagnose/finding.js';
import type { HealthStatus, Report } from '../../report/report.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { DETAILS_ACTION_ID } from '../action-ids.js';
import { renderFixButtons } from './render-fix-buttons.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnWord } from '../../text/neutralize-mrkdwn.js';
import { slackDate } from './slack-date.js';
import { runbookUrl } from './runbook-url.js';
import { atScanTime } from './at-scan-time.js';
import { estimateLines } from './estimate-lines.js';
import { withoutRepeatedClauses } from './without-repeated-clauses.js';
import { splitTitle } from './split-title.js';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import { withoutRestatedSince } from './without-restated-since.js';
import { cutAtClause as cut } from './cut-at-clause.js';

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
 * Lines the answer may take on a 360 px wide phone, the line naming who asked included: one screen.
 * Counted as rendered (estimate-lines.ts: text wrapped word by word, button rows, block margins), so a
 * long title costs what it shows; the sandbox's browser test measures the real height against the
 * same number.
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
  /** Problems with no cause among the problems in view, worst first: one card entry each. */
  roots: Finding[];
  /** The roots that fit on the card. */
  onCard: Finding[];
  /** For each root (by fingerprint), the problems in view it causes (its symptoms). */
  symptomsOf: Map<string, Finding[]>;
  /**
   * For each root on the card (by fingerprint), how much of its headline and why it shows
   * ({@link CARD_STEPS}); Details says the why again when the card had to cut it.
   */
  cuts: Map<string, CardCut>;
}

/** At most this many characters of a root's headline and of its why on the card (0: no why). */
export interface CardCut {
  head: number;
  why: number;
}

/**
 * How much of a root's headline and why the card shows, most first: the planner takes the first that
 * fits the screen, cutting the why before the headline. The whole text is always in Details.
 */
export const CARD_STEPS: readonly CardCut[] = [
  { head: 110, why: 220 },
  { head: 110, why: 150 },
  { head: 110, why: 110 },
  { head: 110, why: 80 },
  { head: 90, why: 80 },
  // A whole headline reads better than a cut one followed by half a clause.
  { head: 110, why: 0 },
  { head: 90, why: 50 },
  { head: 70, why: 50 },
  { head: 70, why: 0 },
];

/**
 * The line under the card that names who asked (handle-health-command.ts) shares the screen: the
 * roots get {@link CARD_LINE_BUDGET} less this.
 */
export const FOOTER_LINES = 1.1;

/**
 * Which root causes the card shows (pure). A root cause is a warning or critical finding that no other
 * problem in view causes (`causedBy`); every other problem is a symptom of one and lives in Details.
 * Roots are added worst first while the card, as estimate-lines.ts counts it with every fix a button,
 * stays within {@link CARD_LINE_BUDGET}: each with the longest why that fits ({@link WHY_STEPS}). The
 * first root is always shown, with its why cut as far as needed: a card that names no cause would say
 * less than one that scrolls.
 */
export function planCard(
  report: Report,
  opts: Pick<RenderBlocksOptions, 'section' | 'maxFindings' | 'note' | 'stale' | 'runbookBaseUrl'>,
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
  const plan: CardPlan = { shown, problems, roots, onCard: [], symptomsOf, cuts: new Map() };
  const max = opts.maxFindings ?? Infinity;
  const everyFixAButton = Object.fromEntries(
    roots.flatMap((r) => r.remediations.map((_, n) => [proposalKey(r, n), 'p'])),
  );
  for (const r of roots) {
    if (plan.onCard.length >= max) break;
    // The card as it would be with this root added (every fix a button, the rest counted in its last line).
    const fits = (cut: CardCut) => {
      const tried: CardPlan = {
        ...plan,
        onCard: [...plan.onCard, r],
        cuts: new Map([...plan.cuts, [r.fingerprint, cut]]),
      };
      const blocks = cardBlocksWithRoots(report, tried, { ...opts, proposalIds: everyFixAButton });
      return estimateLines(blocks) <= CARD_LINE_BUDGET - FOOTER_LINES;
    };
    const first = plan.onCard.length === 0;
    // A root after the first is added with most of its why, or not at all ("+N more root causes").
    const steps = first ? CARD_STEPS : CARD_STEPS.filter((c) => c.why >= 80);
    const cut = steps.find(fits) ?? (first ? CARD_STEPS[CARD_STEPS.length - 1] : undefined);
    if (cut === undefined) break;
    plan.onCard.push(r);
    plan.cuts.set(r.fingerprint, cut);
  }
  return plan;
}

/** The findings whose fix is a button on the card: the caller stores a proposal for each, exactly. */
export function detailedFindings(
  report: Report,
  opts: Pick<RenderBlocksOptions, 'section' | 'maxFindings' | 'note' | 'stale' | 'runbookBaseUrl'>,
): Finding[] {
  return planCard(report, opts).onCard;
}

/**
 * The `/k8s-health` answer card (pure): the cluster and its state with the Details button beside it
 * (sections, symptoms, evidence, finding ids: render-details.ts), when it was scanned if that is not
 * the moment of the answer, then one entry per root cause — what is wrong and since when, why in one
 * sentence with a runbook link, and its proposed fix as a button — within {@link CARD_LINE_BUDGET}
 * lines, and one small line saying what else is behind Details. Times are Slack date tokens, never
 * ages. `check --output blocks` prints this very message. Every value that came from the cluster
 * (names, messages, times, partial errors; even the cluster name, which a dump's meta.json can set)
 * goes through the neutralizer (neutralize-mrkdwn.ts) or into plain_text, so it can never mention,
 * link, restyle or add a line.
 */
export function renderBlocks(report: Report, opts: RenderBlocksOptions): SlackMessage {
  const plan = planCard(report, opts);
  const sectionTitle = opts.section ? SECTION_TITLES[opts.section] : undefined;
  const status = cardStatus(report, opts);
  const blocks = cardBlocksWithRoots(report, plan, opts);
  const unknownCapture = report.collectedAtFrom === 'unknown' || !slackDate(report.collectedAt);
  const text = `${md(report.cluster, { max: 100 })}${sectionTitle ? ` ${sectionTitle}` : ''}: ${status} — ${countBySeverity(plan.shown)} (scanned ${slackDate(report.generatedAt) ?? 'at an unknown time'}${unknownCapture ? ', capture time unknown' : ''})`;
  return clampBlocks({ text, blocks });
}

/** The whole card of a plan: its fixed blocks, the roots on it, and what is behind Details in one small line. */
function cardBlocksWithRoots(report: Report, plan: CardPlan, opts: RenderBlocksOptions): KnownBlock[] {
  const blocks = cardBlocks(report, plan, opts);
  for (const f of plan.onCard)
    blocks.push(...renderRoot(f, report, plan.cuts.get(f.fingerprint) ?? CARD_STEPS[0]!, opts));
  // What is behind Details, in one small line: the symptoms of the roots shown, and the roots that did not fit.
  const hidden = plan.roots.length - plan.onCard.length;
  const symptoms = plan.onCard.reduce((n, r) => n + (plan.symptomsOf.get(r.fingerprint)?.length ?? 0), 0);
  const behind = [
    ...(symptoms > 0 ? [`${symptoms} symptom${symptoms === 1 ? '' : 's'}`] : []),
    ...(hidden > 0 ? [`${hidden} more ${symptoms > 0 ? 'cause' : 'root cause'}${hidden === 1 ? '' : 's'}`] : []),
  ];
  if (behind.length > 0)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `+${behind.join(', ')} in Details` }] });
  return blocks;
}

/** The status the card shows: the section's in a section view. */
function cardStatus(report: Report, opts: RenderBlocksOptions): string {
  const sections = opts.section ? report.sections.filter((s) => s.id === opts.section) : report.sections;
  // A stored report is read back from Redis (untrusted): its status is shown as one of our
  // words, or neutralized when it is anything else.
  return statusWord(opts.section ? (sections[0]?.status ?? 'unknown') : report.status);
}

/**
 * The card's fixed blocks, in order: the cluster and its state with the Details button beside it, the
 * scan time when it says more than the message's own time, the note, and the no-problem or partial line.
 */
function cardBlocks(report: Report, plan: CardPlan, opts: RenderBlocksOptions): KnownBlock[] {
  const sectionTitle = opts.section ? SECTION_TITLES[opts.section] : undefined;
  const sections = opts.section ? report.sections.filter((s) => s.id === opts.section) : report.sections;
  const status = cardStatus(report, opts);
  // Finding ids live in Details (its last context line): the card names what is wrong in words.
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      block_id: 'details',
      text: {
        type: 'mrkdwn',
        text: `${statusEmoji(status)} *${md(report.cluster, { max: 100 })}${sectionTitle ? ` · ${sectionTitle}` : ''}: ${status}*`,
      },
      accessory: {
        type: 'button',
        action_id: DETAILS_ACTION_ID,
        text: { type: 'plain_text', text: 'Details' },
        value: detailsValue(report.cluster, opts.section),
      },
    },
  ];
  const scanned = describeCardScanTime(report, opts);
  if (scanned)
    blocks.push({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: `${scanned}${opts.stale ? ' · :hourglass_flowing_sand: *stale*, refreshing…' : ''}` },
      ],
    });
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
 * The card's scan time, only when it says more than the time of the message itself (a fresh answer is
 * posted, or edited, the moment its scan lands): the report is stale and being refreshed, or its data
 * was captured at another minute, inferred from the data, or unknown. Details has it always. Undefined
 * when there is nothing to say.
 */
export function describeCardScanTime(
  report: Pick<Report, 'generatedAt' | 'collectedAt' | 'collectedAtFrom'>,
  opts: Pick<RenderBlocksOptions, 'stale'> = {},
): string | undefined {
  const generated = Date.parse(report.generatedAt);
  const collected = Date.parse(report.collectedAt);
  const sameMinute =
    report.collectedAtFrom !== 'data' &&
    report.collectedAtFrom !== 'unknown' &&
    Math.floor(generated / 60_000) === Math.floor(collected / 60_000);
  if (!sameMinute || Number.isNaN(generated)) return describeScanTime(report);
  return opts.stale ? `scanned ${slackDate(report.generatedAt)}` : undefined;
}

/** "since <date>" (the problem's own start), "first seen <date>" (the first scan that saw it), or "since: unknown". */
export function describeSince(f: Pick<Finding, 'since' | 'firstSeen'>): string {
  const since = slackDate(f.since);
  if (since) return `since ${since}`;
  const first = slackDate(f.firstSeen);
  return first ? `first seen ${first}` : 'since: unknown';
}

/** The whole why: the cause the data shows, else the first evidence line (ages restated as before the scan). */
export function fullWhy(f: Finding): string {
  return atScanTime(f.cause ?? f.evidence[0] ?? f.title);
}

/** The why without the clauses the title already says ('' when the title says it all). */
export function newWhy(f: Finding): string {
  return withoutRepeatedClauses(fullWhy(f), atScanTime(f.title)) ?? '';
}

/**
 * A root cause's title as the card and the alert parent read it (raw, pure): ages restated as before the
 * scan and a " since <time>" that restates the finding's own start left out (the message says since
 * when itself), split into its headline and the rest (split-title.ts).
 */
export function cardTitle(f: Pick<Finding, 'title' | 'since'>): { head: string; rest?: string } {
  return splitTitle(withoutRestatedSince(atScanTime(f.title), f.since));
}

/**
 * The headline on the card (raw): the title's head without a trailing aside in parentheses ("(221
 * refusals)", "(for 52m)": Details has the whole title), cut at a word to `max` characters.
 */
export function cardHeadline(f: Pick<Finding, 'title' | 'since'>, max: number = CARD_STEPS[0]!.head): string {
  const head = cardTitle(f).head;
  const bare = head.replace(/\s+\([^()]{1,60}\)$/, '');
  return cut(bare.length >= 20 ? bare : head, max);
}

/**
 * Why, in one sentence (raw): the rest of the title when the title has one, else the cause the data
 * shows (else the first evidence line) less what the title already says, up to its first sentence end
 * or dash aside. Empty when the title says it all. The whole text is in Details.
 */
export function rawWhy(f: Finding): string {
  const rest = cardTitle(f).rest;
  if (rest) return rest;
  const text = newWhy(f);
  if (!text) return '';
  const end = /\.\s|\s—\s/.exec(text);
  return end && end.index >= 40 ? `${text.slice(0, end.index)}.` : text;
}

/** A root cause's why on the card, at most `max` characters (neutralized mrkdwn, times as date tokens). */
export function rootWhy(f: Finding, max: number = CARD_STEPS[0]!.why): string {
  return max > 0 ? mrkdwnSentence(cut(rawWhy(f), max), max * 2) : '';
}

function renderRoot(f: Finding, report: Report, cuts: CardCut, opts: RenderBlocksOptions): KnownBlock[] {
  // In a section view a root may still have a cause in another section: name it instead of its own why.
  const outside = findRootCauses(f, report.findings);
  const deepest = outside[outside.length - 1];
  // The title's headline is the line in bold, with since when; the rest of the title is the why (each fact once).
  const why = deepest
    ? `caused by ${mrkdwnSentence(cardHeadline(deepest, Math.max(cuts.why, 60)), 400)} (${SECTION_TITLES[deepest.section]})`
    : rootWhy(f, cuts.why);
  const runbook = `<${runbookUrl(f.id, opts.runbookBaseUrl)}|runbook>`;
  const head = `${SEVERITY_EMOJI[f.severity]} *${mrkdwnSentence(cardHeadline(f, cuts.head), cuts.head * 2)}* · ${describeSince(f)}`;
  const lines = why ? [head, `${why} · ${runbook}`] : [`${head} · ${runbook}`];
  const fix = f.remediations[0];
  // Every fix with a stored proposal is something to press (the first a button, the others in an overflow menu);
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
