import type { types } from '@slack/bolt';
import { SECTION_TITLES, type Finding } from '../../diagnose/finding.js';
import type { Report } from '../../report/report.js';
import { neutralizeMrkdwn as md, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { neutralizePlainText } from '../../text/neutralize-plain-text.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import {
  describeScanTime,
  fullWhy,
  newWhy,
  planCard,
  rawWhy,
  SEVERITY_EMOJI,
  STATUS_EMOJI,
  statusEmoji,
  type RenderBlocksOptions,
} from './render-blocks.js';
import { richSentence } from './rich-sentence.js';
import { runbookUrl } from './runbook-url.js';

type KnownBlock = types.KnownBlock;
type RichTextElement = types.RichTextElement;
type Style = types.RichTextText['style'];

const MAX_EVIDENCE_LINES = 4;
const MAX_PARTIAL = 3;

/**
 * What the card's Details button shows (pure; ephemeral to the clicker, handle-details.ts): every
 * section's line, what could not be read, then each root cause with its evidence, confidence, steps
 * and fixes (with their risk), its symptoms under it, and the info notes. The card's own facts are not
 * repeated: a root cause that is on the card keeps its why sentence there (unless the card had to cut
 * it), and fix buttons live only on the card (here a fix is text).
 *
 * Everything from the cluster is shown in rich_text blocks, as the characters it is (rich-sentence.ts):
 * a rich_text `text` element is never parsed for mrkdwn, links or mentions, so a wildcard reads
 * `vmware-system-*` and an event's URL `https://kyverno-svc…`, not defused look-alikes, and still cannot
 * restyle, link or mention anything. Our own links (the runbooks) are `link` elements, times `date`
 * elements. The scan time and the finding ids, ours, stay mrkdwn context lines.
 */
export function renderDetails(report: Report, opts: RenderBlocksOptions): SlackMessage {
  const plan = planCard(report, opts);
  const sectionTitle = opts.section ? SECTION_TITLES[opts.section] : undefined;
  const sections = opts.section ? report.sections.filter((s) => s.id === opts.section) : report.sections;
  const onCard = new Set(plan.onCard.map((f) => f.fingerprint));
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: `${neutralizeSlackPlainText(report.cluster, { max: 100 })}${sectionTitle ? ` · ${sectionTitle}` : ''}: details`,
        emoji: true,
      },
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: describeScanTime(report) }] },
  ];
  if (sections.length > 0) {
    // Section ids and statuses of a stored report are Redis data too: ours are shown, anything else as plain text.
    const lines = sections.map((s): RichTextElement[] => {
      const status = ourWord(s.status, Object.keys(STATUS_EMOJI));
      const title = Object.hasOwn(SECTION_TITLES, s.id) ? SECTION_TITLES[s.id] : neutralizePlainText(s.id, { max: 40 });
      return [
        emoji(statusEmoji(status)),
        text(' '),
        text(title, { bold: true }),
        text(` — ${status} · `),
        ...richSentence(s.summary, { max: 300 }),
      ];
    });
    blocks.push(rich([section(joinLines(lines))]));
  }
  if (report.partial.length > 0) {
    const parts = report.partial
      .slice(0, MAX_PARTIAL)
      .map((p) => [...richSentence(p.source, { max: 200 }), text(': '), ...richSentence(p.error, { max: 400 })]);
    const rest = report.partial.length - MAX_PARTIAL;
    blocks.push(
      rich([
        section([
          emoji(':warning:'),
          text(' Partial data — '),
          ...parts.flatMap((p, i) => (i > 0 ? [text('; '), ...p] : p)),
          ...(rest > 0 ? [text(` (+${rest} more)`)] : []),
        ]),
      ]),
    );
  }
  for (const root of plan.roots) {
    blocks.push({ type: 'divider' });
    // The card said the why of its roots; Details says it again only when the card had to cut it.
    const said = rawWhy(root);
    const cardSaidAll =
      onCard.has(root.fingerprint) &&
      said === newWhy(root) &&
      said.length <= (plan.cuts.get(root.fingerprint)?.why ?? 0);
    blocks.push(findingBlock(root, { why: !cardSaidAll, opts }));
    const symptoms = plan.symptomsOf.get(root.fingerprint) ?? [];
    if (symptoms.length > 0) {
      const items = symptoms.map((s) =>
        section([
          emoji(severityEmoji(s.severity)),
          text(' '),
          ...richSentence(s.title, { max: 200 }),
          text(' — '),
          ...since(s),
          text(' · '),
          runbook(s, opts),
          ...(s.evidence[0] ? [text('\n'), ...richSentence(s.evidence[0], { max: 300 })] : []),
        ]),
      );
      blocks.push(
        rich([
          section([text(`Symptoms of this cause (${symptoms.length}):`, { bold: true })]),
          { type: 'rich_text_list', style: 'bullet', elements: items },
        ]),
      );
    }
  }
  const notes = plan.shown.filter((f) => f.severity === 'info');
  if (notes.length > 0) {
    blocks.push({ type: 'divider' });
    for (const f of notes) blocks.push(findingBlock(f, { why: true, opts }));
  }
  if (plan.shown.length === 0)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: ':white_check_mark: No findings.' }] });
  // The finding ids (for `k8s-health check`, docs/diagnosis.md and the alert threads): here, not on the card.
  const ids = [...new Set(plan.shown.map((f) => f.id))];
  if (ids.length > 0)
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `ids: ${ids.map((id) => md(id, { max: 80 })).join(', ')}` }],
    });
  return clampBlocks({
    text: `${md(report.cluster, { max: 100 })}${sectionTitle ? ` ${sectionTitle}` : ''}: details of the scan (${describeScanTime(report)})`,
    blocks,
  });
}

/** One finding: title, subject and since when, why, confidence, its evidence quoted, steps, fixes and their risk. */
function findingBlock(f: Finding, o: { why: boolean; opts: RenderBlocksOptions }): KnownBlock {
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  const head: RichTextElement[][] = [
    [
      emoji(severityEmoji(f.severity)),
      text(' '),
      ...richSentence(f.title, { max: 300, style: { bold: true } }),
      text(' · '),
      runbook(f, o.opts),
    ],
    [...richSentence(subject, { max: 300 }), text(' · '), ...since(f)],
  ];
  if (o.why) head.push([text('Why: ', { bold: true }), ...richSentence(fullWhy(f), { max: 1000 })]);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length)
    head.push([
      text('Confidence: ', { bold: true }),
      text(ourWord(f.confidence ?? 'high', ['high', 'medium', 'low'])),
      ...(f.missing?.length ? [text(' — missing: '), ...richSentence(f.missing.join('; '), { max: 300 })] : []),
    ]);
  const parts: types.RichTextBlockElement[] = [section(joinLines(head))];
  const evidence = f.evidence.slice(0, MAX_EVIDENCE_LINES).map((e) => richSentence(e, { max: 400 }));
  const more = f.evidence.length - MAX_EVIDENCE_LINES;
  if (more > 0)
    evidence.push([
      text(`+${more} more evidence line${more === 1 ? '' : 's'} (`, { italic: true }),
      text('k8s-health check', { italic: true, code: true }),
      text(' lists them all)', { italic: true }),
    ]);
  const quoted = evidence.filter((e) => e.length > 0);
  if (quoted.length > 0) parts.push({ type: 'rich_text_quote', elements: merged(joinLines(quoted)) });
  const tail: RichTextElement[][] = [];
  if (f.steps?.length)
    tail.push([
      text('Steps (by hand):', { bold: true }),
      ...f.steps.flatMap((step, i) => [text(`\n${i + 1}. `), ...richSentence(step, { max: 300 })]),
    ]);
  for (const [i, r] of f.remediations.entries())
    tail.push([
      emoji(':wrench:'),
      text(` ${i === 0 ? 'Fix' : 'Other fix'}: `),
      ...richSentence(r.label, { max: 200 }),
      text(' — risk: '),
      ...richSentence(r.risk, { max: 300 }),
    ]);
  if (tail.length > 0) parts.push(section(joinLines(tail)));
  return rich(parts);
}

/** "since <date>" (the problem's own start), "first seen <date>" (the first scan that saw it), or "since: unknown". */
function since(f: Pick<Finding, 'since' | 'firstSeen'>): RichTextElement[] {
  for (const [word, iso] of [
    ['since', f.since],
    ['first seen', f.firstSeen],
  ] as const) {
    const when = iso ? richSentence(iso, { max: 40 }) : [];
    if (when.length === 1 && when[0]!.type === 'date') return [text(`${word} `), when[0]!];
  }
  return [text('since: unknown')];
}

function runbook(f: Pick<Finding, 'id'>, opts: RenderBlocksOptions): RichTextElement {
  return { type: 'link', url: runbookUrl(f.id, opts.runbookBaseUrl), text: 'runbook' };
}

/** One of our words read back from Redis: as it is when it is one of `known`, else as plain text (another wrote it). */
function ourWord(value: unknown, known: readonly string[]): string {
  return typeof value === 'string' && known.includes(value) ? value : neutralizePlainText(value, { max: 20 });
}

function severityEmoji(severity: string): string {
  return Object.hasOwn(SEVERITY_EMOJI, severity) ? SEVERITY_EMOJI[severity as Finding['severity']] : ':white_circle:';
}

function text(t: string, style?: Style): RichTextElement {
  return style ? { type: 'text', text: t, style } : { type: 'text', text: t };
}

/**
 * The emoji Details shows, as characters: a text element merges with the text beside it, where an
 * emoji element costs its own keys (the message is held to Slack's size limit by its JSON).
 */
const EMOJI: Record<string, string> = {
  ':red_circle:': '🔴',
  ':large_yellow_circle:': '🟡',
  ':large_green_circle:': '🟢',
  ':white_circle:': '⚪',
  ':warning:': '⚠️',
  ':information_source:': 'ℹ️',
  ':wrench:': '🔧',
};

/** Our `:code:` as its emoji. */
function emoji(code: string): RichTextElement {
  const char = EMOJI[code];
  return char ? text(char) : { type: 'emoji', name: code.replace(/:/g, '') };
}

/** Lines joined by our own line breaks (a line with nothing in it is left out). */
function joinLines(lines: RichTextElement[][]): RichTextElement[] {
  return lines.filter((l) => l.length > 0).flatMap((l, i) => (i > 0 ? [text('\n'), ...l] : l));
}

function section(elements: RichTextElement[]): types.RichTextSection {
  return { type: 'rich_text_section', elements: merged(elements) };
}

/**
 * Adjacent text elements of one style as one: the same text in fewer elements (a Details message is
 * held to Slack's size limit by its JSON, and every element costs its keys).
 */
function merged(elements: RichTextElement[]): RichTextElement[] {
  const out: RichTextElement[] = [];
  for (const e of elements) {
    const last = out[out.length - 1];
    if (e.type === 'text' && last?.type === 'text' && JSON.stringify(last.style) === JSON.stringify(e.style))
      out[out.length - 1] = { ...last, text: last.text + e.text };
    else out.push(e);
  }
  return out;
}

function rich(elements: types.RichTextBlockElement[]): KnownBlock {
  return { type: 'rich_text', elements };
}
