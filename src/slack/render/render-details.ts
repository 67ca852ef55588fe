import type { types } from '@slack/bolt';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import { SECTION_TITLES, type Finding } from '../../diagnose/finding.js';
import type { Report } from '../../report/report.js';
import { neutralizeMrkdwn as md, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import {
  describeScanTime,
  describeSince,
  fullWhy,
  newWhy,
  planCard,
  rawWhy,
  SEVERITY_EMOJI,
  statusEmoji,
  statusWord,
  type RenderBlocksOptions,
} from './render-blocks.js';
import { runbookUrl } from './runbook-url.js';

type KnownBlock = types.KnownBlock;

const MAX_EVIDENCE_LINES = 4;

const sentence = mrkdwnSentence;
const MAX_PARTIAL = 3;

/**
 * What the card's Details button shows (pure; ephemeral to the clicker, handle-details.ts): every
 * section's line, what could not be read, then each root cause with its evidence, confidence, steps
 * and fixes (with their risk), its symptoms under it, and the info notes. The card's own facts are not
 * repeated: a root cause that is on the card keeps its why sentence there, and fix buttons live only
 * on the card (here a fix is text). Untrusted text is neutralized as in render-blocks.ts.
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
    // Section ids and statuses of a stored report are Redis data too: ours are shown, anything else neutralized.
    const lines = sections.map((s) => {
      const status = statusWord(s.status);
      const title = Object.hasOwn(SECTION_TITLES, s.id) ? SECTION_TITLES[s.id] : md(s.id, { max: 40 });
      return `${statusEmoji(status)} *${title}* — ${status} · ${sentence(s.summary, 300)}`;
    });
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } });
  }
  if (report.partial.length > 0) {
    const parts = report.partial
      .slice(0, MAX_PARTIAL)
      .map((p) => `${md(p.source, { max: 200 })}: ${sentence(p.error, 400)}`);
    const rest = report.partial.length - MAX_PARTIAL;
    blocks.push({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: `:warning: Partial data — ${parts.join('; ')}${rest > 0 ? ` (+${rest} more)` : ''}` },
      ],
    });
  }
  for (const root of plan.roots) {
    blocks.push({ type: 'divider' });
    // The card said the why of its roots; Details says it again only when the card had to shorten it.
    const said = rawWhy(root);
    const cardSaidAll =
      onCard.has(root.fingerprint) &&
      said === newWhy(root) &&
      said.length <= (plan.cuts.get(root.fingerprint)?.why ?? 0);
    blocks.push(findingSection(root, { why: !cardSaidAll, opts }));
    const symptoms = plan.symptomsOf.get(root.fingerprint) ?? [];
    if (symptoms.length > 0) {
      const lines = symptoms.map(
        (s) =>
          `• ${SEVERITY_EMOJI[s.severity]} ${sentence(s.title, 200)} — ${describeSince(s)} · <${runbookUrl(s.id, opts.runbookBaseUrl)}|runbook>${s.evidence[0] ? `\n    > ${sentence(s.evidence[0], 300)}` : ''}`,
      );
      blocks.push({
        type: 'section',
        text: { type: 'mrkdwn', text: `*Symptoms of this cause (${symptoms.length}):*\n${lines.join('\n')}` },
      });
    }
  }
  const notes = plan.shown.filter((f) => f.severity === 'info');
  if (notes.length > 0) {
    blocks.push({ type: 'divider' });
    for (const f of notes) blocks.push(findingSection(f, { why: true, opts }));
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

function findingSection(f: Finding, o: { why: boolean; opts: RenderBlocksOptions }): KnownBlock {
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  const lines = [
    `${SEVERITY_EMOJI[f.severity]} *${sentence(f.title, 300)}* · <${runbookUrl(f.id, o.opts.runbookBaseUrl)}|runbook>`,
    `${md(subject, { max: 300 })} · ${describeSince(f)}`,
  ];
  if (o.why) lines.push(`*Why:* ${sentence(fullWhy(f), 1000)}`);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length) {
    lines.push(
      `*Confidence:* ${md(f.confidence ?? 'high', { max: 10 })}${f.missing?.length ? ` — missing: ${sentence(f.missing.join('; '), 300)}` : ''}`,
    );
  }
  for (const e of f.evidence.slice(0, MAX_EVIDENCE_LINES)) lines.push(`> ${sentence(e, 400)}`);
  const more = f.evidence.length - MAX_EVIDENCE_LINES;
  if (more > 0)
    lines.push(`> _+${more} more evidence line${more === 1 ? '' : 's'} (\`k8s-health check\` lists them all)_`);
  if (f.steps?.length)
    lines.push(`*Steps (by hand):* ${f.steps.map((step, i) => `${i + 1}. ${sentence(step, 300)}`).join('\n')}`);
  for (const [i, r] of f.remediations.entries()) {
    lines.push(`:wrench: ${i === 0 ? 'Fix' : 'Other fix'}: ${sentence(r.label, 200)} — risk: ${sentence(r.risk, 300)}`);
  }
  return { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } };
}
