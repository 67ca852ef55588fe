import type { types } from '@slack/bolt';

/** Characters of body text per rendered line in a 360 px wide Slack client (15 px text beside the avatar). */
const BODY_CHARS = 36;
/** Context text is smaller (13 px): more characters per line, and each line is shorter. */
const CONTEXT_CHARS = 42;
const CONTEXT_LINE = 0.9;
/** A header is 18 px bold. */
const HEADER_CHARS = 25;
const HEADER_LINE = 1.2;
/** A row of buttons: characters of labels (with padding) per row, and a row's height in lines. */
const BUTTON_ROW_CHARS = 30;
const BUTTON_ROW = 1.7;
/** The margins around each block. */
const BLOCK_GAP = 0.4;

/**
 * How many lines of a phone screen a message's blocks take (pure, deterministic): an estimate of what
 * a 360 px wide Slack client (and the sandbox page at that width) renders, so a card's length is held
 * to a budget without a browser. Text is counted as it shows: a link as its label, a date token as its
 * fallback's length, an emoji code as one character, mrkdwn markers as nothing.
 */
export function estimateLines(blocks: readonly types.KnownBlock[]): number {
  let lines = 0;
  for (const b of blocks) {
    lines += BLOCK_GAP;
    if (b.type === 'header') lines += wrapped(b.text.text, HEADER_CHARS) * HEADER_LINE;
    else if (b.type === 'section')
      lines +=
        (b.text ? textLines(b.text.text, BODY_CHARS) : 0) +
        (b.fields ?? []).reduce((n, f) => n + textLines(f.text, BODY_CHARS), 0);
    else if (b.type === 'context')
      lines += b.elements.reduce((n, e) => n + ('text' in e ? textLines(e.text, CONTEXT_CHARS) : 1), 0) * CONTEXT_LINE;
    else if (b.type === 'actions') lines += buttonRows(b.elements) * BUTTON_ROW;
    else if (b.type === 'divider') lines += 0.5;
    else lines += 2;
  }
  return Math.round(lines * 10) / 10;
}

/** Lines of a text whose `\n`-separated lines each wrap at `width` characters. */
function textLines(text: string, width: number): number {
  return visible(text)
    .split('\n')
    .reduce((n, line) => n + wrapped(line, width), 0);
}

function wrapped(line: string, width: number): number {
  return Math.max(1, Math.ceil([...line].length / width));
}

/** The text as a reader sees it: links as their label, date tokens as their fallback, emoji as one character. */
function visible(text: string): string {
  return text
    .replace(/<!date\^\d+\^[^|>]*\|([^>]*)>/g, 'today 10:00 AM')
    .replace(/<[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<[@#!]?([^>]*)>/g, '$1')
    .replace(/:[a-z0-9_+-]+:/g, '●')
    .replace(/[*_~`]/g, '');
}

/** Rows the elements of an actions block take: packed left to right, a long label wrapping inside its button. */
function buttonRows(
  elements: readonly { type: string; text?: { text: string }; placeholder?: { text: string } }[],
): number {
  let rows = 1;
  let used = 0;
  for (const e of elements) {
    const label = e.type === 'overflow' ? '⋯' : (e.text?.text ?? e.placeholder?.text ?? '');
    const width = Math.min(BUTTON_ROW_CHARS, [...label].length + 4 + (e.type === 'static_select' ? 2 : 0));
    // A label longer than a row wraps inside its button, which then takes rows of its own.
    const own = Math.ceil(([...label].length + 4) / BUTTON_ROW_CHARS);
    if (own > 1) {
      rows += (used > 0 ? 1 : 0) + (own - 1) * 0.6;
      used = BUTTON_ROW_CHARS;
      continue;
    }
    if (used > 0 && used + width > BUTTON_ROW_CHARS) {
      rows++;
      used = 0;
    }
    used += width;
  }
  return rows;
}
