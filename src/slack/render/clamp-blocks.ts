import type { types } from '@slack/bolt';
import { truncate } from '../../text/truncate.js';

type KnownBlock = types.KnownBlock;

/** A Slack message as the renderers produce it: fallback text plus Block Kit blocks. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/**
 * Slack's Block Kit limits (api.slack.com/reference/block-kit). Past any of them chat.postMessage
 * fails with `invalid_blocks` / `msg_too_long`, so every message is clamped here, in one place.
 */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  contextElementText: 2000,
  actionsElements: 25,
  sectionFields: 10,
  fieldText: 2000,
  fallbackText: 3000,
  /** Slack documents no hard total for blocks, but messages past ~13k characters get truncated or rejected. */
  messageChars: 13000,
} as const;

/**
 * Clamp a message to Slack's limits. Over-long texts are cut with "…"; when there are too many
 * blocks or too many characters, trailing blocks are dropped and replaced by one "+N more" line
 * so the message still posts instead of failing with an API error. Every message passes here, so
 * here too every mrkdwn text gets `verbatim: true`: Slack then does not auto-link URLs, channel
 * names or mention words in it (our own `<@U…>` still work). Untrusted text is neutralized by the
 * renderers anyway (text/neutralize-mrkdwn.ts); this is the second layer.
 */
export function clampBlocks(message: SlackMessage): SlackMessage {
  const blocks = message.blocks.map(clampBlock);
  const kept: KnownBlock[] = [];
  let chars = 0;
  for (const [i, b] of blocks.entries()) {
    const size = blockChars(b);
    const roomForMore = i < blocks.length - 1 ? 1 : 0; // keep one slot for the "+N more" line
    if (kept.length + 1 + roomForMore > SLACK_LIMITS.blocks || chars + size > SLACK_LIMITS.messageChars - 100) {
      kept.push(moreLine(blocks.slice(i)));
      return { text: truncate(message.text, SLACK_LIMITS.fallbackText), blocks: kept };
    }
    kept.push(b);
    chars += size;
  }
  return { text: truncate(message.text, SLACK_LIMITS.fallbackText), blocks: kept };
}

function moreLine(dropped: KnownBlock[]): KnownBlock {
  // Count what a reader lost: dividers are not content.
  const n = dropped.filter((b) => b.type !== 'divider').length;
  return {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `+${n} more (message shortened to fit Slack's limits)`, verbatim: true }],
  };
}

function clampBlock(block: KnownBlock): KnownBlock {
  switch (block.type) {
    case 'header':
      return { ...block, text: { ...block.text, text: truncate(block.text.text, SLACK_LIMITS.headerText) } };
    case 'section': {
      const out = { ...block };
      if (out.text) out.text = verbatim({ ...out.text, text: truncateMrkdwn(out.text.text, SLACK_LIMITS.sectionText) });
      if (out.fields) {
        out.fields = out.fields
          .slice(0, SLACK_LIMITS.sectionFields)
          .map((f) => verbatim({ ...f, text: truncateMrkdwn(f.text, SLACK_LIMITS.fieldText) }));
      }
      return out;
    }
    case 'context':
      return {
        ...block,
        elements: block.elements.map((e) =>
          'text' in e && typeof e.text === 'string'
            ? verbatim({ ...e, text: truncateMrkdwn(e.text, SLACK_LIMITS.contextElementText) })
            : e,
        ),
      };
    case 'actions':
      return {
        ...block,
        elements: block.elements.slice(0, SLACK_LIMITS.actionsElements).map((e) => {
          if (e.type !== 'button') return e;
          const b = { ...e, text: { ...e.text, text: truncate(e.text.text, SLACK_LIMITS.buttonText) } };
          if (b.value !== undefined) b.value = b.value.slice(0, SLACK_LIMITS.buttonValue);
          return b;
        }),
      };
    default:
      return block;
  }
}

/**
 * {@link truncate} for mrkdwn: a cut inside a ``` code block closes the block, so the text after the
 * message (or the next block's) is never swallowed into it. Untrusted text holds no backticks at all
 * (neutralize-mrkdwn.ts): every fence here is ours.
 */
function truncateMrkdwn(s: string, max: number): string {
  const even = (t: string) => (t.match(/```/g)?.length ?? 0) % 2 === 0;
  const cut = truncate(s, max);
  if (cut === s || even(cut)) return cut;
  const shorter = truncate(s, max - 3);
  return even(shorter) ? shorter : `${shorter}\`\`\``;
}

/** A mrkdwn text object with Slack's auto-linking off; plain_text is left as it is (it has no such option). */
function verbatim<T extends { type: string }>(t: T): T {
  return t.type === 'mrkdwn' ? { ...t, verbatim: true } : t;
}

/** Characters a block contributes to the message (its JSON size: what Slack's limit is about). */
function blockChars(block: KnownBlock): number {
  return JSON.stringify(block).length;
}
