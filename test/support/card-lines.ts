import { DETAILS_ACTION_ID } from '../../src/slack/action-ids.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

/**
 * The text lines of an answer's card: every block before the first divider — a header is one line, a
 * section or context text one per `\n`-separated line, an actions row one (the Details button beside
 * the first line is not a line of its own). The estimate they are held to is CARD_LINE_BUDGET
 * (render-blocks.ts, estimate-lines.ts).
 */
export function cardLines(blocks: readonly AnyBlock[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.type === 'divider') break;
    if (b.type === 'header') out.push(b.text.text);
    else if (b.type === 'section') {
      if (b.text) out.push(...String(b.text.text).split('\n'));
      for (const f of b.fields ?? []) out.push(...String(f.text).split('\n'));
    } else if (b.type === 'context') for (const e of b.elements) out.push(...String(e.text ?? '').split('\n'));
    else if (b.type === 'actions') out.push(b.elements.map((e: AnyBlock) => `[${e.text?.text ?? ''}]`).join(' '));
  }
  return out;
}

/** The card's Details button (beside its first line), if it has one. */
export function detailsButton(blocks: readonly AnyBlock[]): AnyBlock | undefined {
  return blocks
    .flatMap((b) => [...(b.accessory ? [b.accessory] : []), ...(b.type === 'actions' ? b.elements : [])])
    .find((e: AnyBlock) => e.action_id === DETAILS_ACTION_ID);
}

/** Whether the message has the card's Details button at all. */
export function hasDetailsButton(blocks: readonly AnyBlock[]): boolean {
  return detailsButton(blocks) !== undefined;
}

/**
 * The state a message's first line says, as plain words: a header's text ("prod-east: scanning…"), or
 * the answer card's first section without its emoji and bold ("prod-east: critical").
 */
export function cardState(blocks: readonly AnyBlock[]): string {
  const first = blocks[0];
  const text = String(first?.text?.text ?? '');
  return first?.type === 'header' ? text : text.replace(/^:[a-z0-9_+-]+: /, '').replace(/^\*(.*)\*$/, '$1');
}
