import { DETAILS_ACTION_ID } from '../../src/slack/action-ids.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

/**
 * The text lines of an answer's card: every block before the Details button or the first
 * divider — a header is one line, a section or context text one per `\n`-separated line, an actions
 * row one. The budget they are held to is CARD_LINE_BUDGET (render-blocks.ts).
 */
export function cardLines(blocks: readonly AnyBlock[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.type === 'divider') break;
    if (b.type === 'actions' && b.elements.some((e: AnyBlock) => e.action_id === DETAILS_ACTION_ID)) break;
    if (b.type === 'header') out.push(b.text.text);
    else if (b.type === 'section') {
      if (b.text) out.push(...String(b.text.text).split('\n'));
      for (const f of b.fields ?? []) out.push(...String(f.text).split('\n'));
    } else if (b.type === 'context') for (const e of b.elements) out.push(...String(e.text ?? '').split('\n'));
    else if (b.type === 'actions') out.push(b.elements.map((e: AnyBlock) => `[${e.text?.text ?? ''}]`).join(' '));
  }
  return out;
}

/** Whether the message has the card's Details button at all. */
export function hasDetailsButton(blocks: readonly AnyBlock[]): boolean {
  return blocks.some(
    (b) => b.type === 'actions' && b.elements.some((e: AnyBlock) => e.action_id === DETAILS_ACTION_ID),
  );
}
