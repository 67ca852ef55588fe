import type { types } from '@slack/bolt';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import { SLACK_CHANNEL_ID } from './mention-user.js';
import { slackDate } from './slack-date.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';

/**
 * An answer card whose incident resolved (pure): the card as posted, its first line (the state) marked
 * "· outdated", a line right under it saying what resolved when and where its thread is, and
 * without its fix buttons — so no message goes on saying "critical" with buttons for a problem that
 * is gone. The stored blocks are the bot's own (read back from Redis: only the first line's text and the
 * fix rows are touched; the new line's values are neutralized).
 */
export function renderOutdatedCard(
  card: { text: string; blocks: unknown[] },
  resolved: { title: string; at?: string; thread?: { channel: string; ts: string } },
): SlackMessage {
  const blocks = (card.blocks as types.KnownBlock[]).filter(
    (b) => !(b.type === 'actions' && String(b.block_id ?? '').startsWith('fix:')),
  );
  // The card's first line is its state: a header, or (the answer card) a section with the Details button beside it.
  const head = blocks[0];
  if (head?.type === 'header' && !head.text.text.endsWith('· outdated'))
    blocks[0] = { ...head, text: { ...head.text, text: `${head.text.text.slice(0, 135)} · outdated` } };
  const top = head?.type === 'header' || (head?.type === 'section' && head.accessory !== undefined);
  if (head?.type === 'section' && top && head.text && !head.text.text.endsWith('· outdated'))
    blocks[0] = { ...head, text: { ...head.text, text: `${head.text.text.slice(0, 300)} · outdated` } };
  const t = resolved.thread;
  const where =
    t && SLACK_CHANNEL_ID.test(t.channel) && /^\d{1,12}\.\d{1,8}$/.test(t.ts)
      ? `<https://slack.com/archives/${t.channel}/p${t.ts.replace('.', '')}|see its alert thread>`
      : 'see its alert thread';
  const line = `:hourglass: *Outdated* — ${mrkdwnSentence(resolved.title, 200)} resolved ${slackDate(resolved.at) ?? 'since'}: ${where}; \`/k8s-health\` again for the current state.`;
  blocks.splice(top ? 1 : 0, 0, { type: 'context', elements: [{ type: 'mrkdwn', text: line }] });
  return clampBlocks({ text: `Outdated: ${card.text}`.slice(0, 3000), blocks });
}
