import type { types } from '@slack/bolt';

/**
 * The page the estimate models: a 360 px wide phone, where a message's blocks get 274 px beside the
 * avatar (the sandbox page at that width; Slack's phone layout is about the same), body text 15 px with
 * lines of 1.46 em. Character widths are those of DejaVu Sans, the widest of the usual UI fonts (the
 * one headless Chromium falls back to), so a real phone shows the same text in as many lines or fewer.
 */
const WIDTH = 274;
const LINE_HEIGHT = 1.46;
const BODY = { size: 15, bold: false };
const CONTEXT = { size: 13, bold: false };
const HEADER = { size: 18, bold: true };
const BUTTON = { size: 14, bold: true };
/** A button: padding and border around its label; its row is one line of 14 px text plus those. */
const BUTTON_PAD = 26;
const BUTTON_HEIGHT = 14 * LINE_HEIGHT + 10;
/** Gaps between buttons in a row and between rows; a long label is cut, leaving room for a 3 em overflow menu. */
const BUTTON_GAP = 8;
const OVERFLOW_WIDTH = 3 * 14;
const SECTION_ACCESSORY_GAP = 12;
/** Vertical margins [top, bottom] of each block; adjacent margins collapse into the larger one. */
const MARGINS: Record<string, [number, number]> = {
  header: [4, 4],
  section: [4, 4],
  context: [4, 4],
  actions: [8, 4],
  divider: [8, 8],
};

/**
 * How many lines of a phone screen a message's blocks take (pure, deterministic): an estimate of what
 * a 360 px wide Slack client (and the sandbox page at that width) renders, in lines of body text, so a
 * card's length is held to a budget without a browser. Text is wrapped word by word at the width of
 * its characters: a link counts as its label, a date token as "today 10:00 AM", an emoji code as one
 * emoji, `*bold*` as bold, other mrkdwn markers as nothing; buttons are packed into rows as a flex
 * row packs them, a label too long for its row cut with an ellipsis.
 */
export function estimateLines(blocks: readonly types.KnownBlock[]): number {
  let px = 0;
  let previousBottom: number | undefined;
  for (const b of blocks) {
    const [top, bottom] = MARGINS[b.type] ?? [0, 0];
    if (previousBottom !== undefined) px += Math.max(previousBottom, top);
    px += blockHeight(b);
    previousBottom = bottom;
  }
  return Math.round((px / (BODY.size * LINE_HEIGHT)) * 10) / 10;
}

function blockHeight(b: types.KnownBlock): number {
  switch (b.type) {
    case 'header':
      return textHeight(b.text.text, HEADER, WIDTH, false);
    case 'section': {
      const accessory = b.accessory ? elementWidth(b.accessory) : 0;
      const width = accessory > 0 ? WIDTH - accessory - SECTION_ACCESSORY_GAP : WIDTH;
      const text = b.text ? textHeight(b.text.text, BODY, width, b.text.type === 'mrkdwn') : 0;
      // Fields sit two to a row; a row is as tall as its taller field.
      const fields = b.fields ?? [];
      let rows = 0;
      for (let i = 0; i < fields.length; i += 2) {
        const pair = fields.slice(i, i + 2).map((f) => textHeight(f.text, BODY, (WIDTH - 16) / 2, f.type === 'mrkdwn'));
        rows += Math.max(...pair) + (i > 0 ? 4 : 0);
      }
      return Math.max(text + (rows > 0 ? rows + 4 : 0), accessory > 0 ? BUTTON_HEIGHT : 0);
    }
    case 'context': {
      // Elements flow in a wrapping row: one element is its text wrapped at the full width.
      const texts = b.elements.map((e) => ('text' in e && typeof e.text === 'string' ? e.text : '▢'));
      return textHeight(texts.join(' '.repeat(2)), CONTEXT, WIDTH, true);
    }
    case 'actions':
      return buttonRows(b.elements) * BUTTON_HEIGHT + (buttonRows(b.elements) - 1) * BUTTON_GAP;
    case 'divider':
      return 1;
    default:
      return 2 * BODY.size * LINE_HEIGHT;
  }
}

/** The rendered width of an element beside a section's text (a button, an overflow menu, a select). */
function elementWidth(e: NonNullable<types.SectionBlock['accessory']>): number {
  if (e.type === 'overflow') return OVERFLOW_WIDTH;
  const label =
    'text' in e && e.text && typeof e.text === 'object' && 'text' in e.text
      ? String(e.text.text)
      : 'placeholder' in e && e.placeholder
        ? String(e.placeholder.text)
        : '';
  return Math.min(WIDTH / 2, runWidth(label, BUTTON) + BUTTON_PAD);
}

/** Rows the elements of an actions block take: packed left to right as a wrapping flex row. */
function buttonRows(
  elements: readonly { type: string; text?: { text: string }; placeholder?: { text: string } }[],
): number {
  const maxButton = WIDTH - OVERFLOW_WIDTH - BUTTON_GAP;
  let rows = 1;
  let used = 0;
  for (const e of elements) {
    const label = e.type === 'overflow' ? '' : (e.text?.text ?? e.placeholder?.text ?? '');
    const width =
      e.type === 'overflow'
        ? OVERFLOW_WIDTH
        : Math.min(maxButton, runWidth(label, BUTTON) + BUTTON_PAD + (e.type === 'static_select' ? 24 : 0));
    if (used > 0 && used + BUTTON_GAP + width > WIDTH) {
      rows++;
      used = 0;
    }
    used += (used > 0 ? BUTTON_GAP : 0) + width;
  }
  return rows;
}

/** Height of a text wrapped at `width`: each `\n`-separated line wrapped word by word. */
function textHeight(text: string, font: { size: number; bold: boolean }, width: number, mrkdwn: boolean): number {
  const runs = mrkdwn ? visibleRuns(text) : [{ text, bold: false }];
  let lines = 0;
  let line: { text: string; bold: boolean }[] = [];
  const flush = () => {
    lines += wrappedLines(line, font, width);
    line = [];
  };
  for (const r of runs) {
    const parts = r.text.split('\n');
    parts.forEach((p, i) => {
      if (i > 0) flush();
      if (p) line.push({ text: p, bold: r.bold });
    });
  }
  flush();
  return lines * font.size * LINE_HEIGHT;
}

/** Lines a paragraph takes: wrapped greedily at spaces and after hyphens, a word longer than a line broken anywhere. */
function wrappedLines(
  runs: { text: string; bold: boolean }[],
  font: { size: number; bold: boolean },
  width: number,
): number {
  // Words with their widths (a trailing space is counted, but may hang past the end of a line).
  const words: { width: number; space: number }[] = [];
  for (const r of runs) {
    const f = { size: font.size, bold: font.bold || r.bold };
    for (const m of r.text.matchAll(/[^\s\-—]*[-—]?(\s*)/g)) {
      if (!m[0]) continue;
      const word = m[0].slice(0, m[0].length - m[1]!.length);
      words.push({ width: runWidth(word, f), space: runWidth(m[1]!, f) });
    }
  }
  let lines = 1;
  let used = 0;
  for (const w of words) {
    if (used > 0 && used + w.width > width) {
      lines++;
      used = 0;
    }
    if (w.width > width) {
      // overflow-wrap: anywhere — a word wider than the line fills lines of its own.
      lines += Math.ceil(w.width / width) - 1;
      used = w.width % width;
    } else used += w.width;
    used += w.space;
  }
  return lines;
}

/**
 * The text as a reader sees it, in runs of regular and bold: links as their label, date tokens as
 * "today 10:00 AM", emoji codes as one emoji, entities as their character, `*…*` bold, and the other
 * markers (`_`, `~`, backticks) as nothing.
 */
function visibleRuns(text: string): { text: string; bold: boolean }[] {
  const shown = text
    .replace(/<!date\^\d+\^[^|>]*\|[^>]*>/g, 'today 10:00 AM')
    .replace(/<[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<[@#!]?([^>]*)>/g, '@$1')
    .replace(/:[a-z0-9_+-]+:/g, '\u{1F534}')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/(^|[^\p{L}\p{N}])[_~`]|[_~`](?=$|[^\p{L}\p{N}])/gu, '$1');
  return shown.split('*').map((t, i) => ({ text: t, bold: i % 2 === 1 }));
}

/**
 * Advance widths of DejaVu Sans from space (U+0020) to `~` (U+007E), in hundredths of an em, regular
 * and bold: measured in Chromium, the font the sandbox page falls back to.
 */
const ASCII_EM = {
  regular:
    '32,40,46,84,64,95,78,27,39,39,50,84,32,36,32,34,64,64,64,64,64,64,64,64,64,64,34,34,84,84,84,53,100,68,69,70,77,63,58,77,75,29,29,66,56,86,75,79,60,79,69,63,61,73,68,99,69,61,69,39,34,39,84,50,50,61,63,55,63,62,35,63,63,28,28,58,28,97,63,61,63,63,41,52,39,63,59,82,59,59,52,64,34,64,84',
  bold: '35,46,52,84,70,100,87,31,46,46,52,84,38,42,38,37,70,70,70,70,70,70,70,70,70,70,40,40,84,84,84,58,100,77,76,73,83,68,68,82,84,37,37,77,64,100,84,85,73,85,77,72,68,81,77,110,77,72,73,46,37,46,84,50,50,67,72,59,72,68,44,72,71,34,34,67,34,104,71,69,72,72,49,60,48,71,65,92,65,65,58,71,37,71,84',
};
const ASCII = {
  regular: ASCII_EM.regular.split(',').map((n) => Number(n) / 100),
  bold: ASCII_EM.bold.split(',').map((n) => Number(n) / 100),
};
/** Other characters: narrow punctuation, dashes and ellipses, and anything else (an emoji, a CJK character) as wide. */
const OTHER_EM: Record<string, number> = { '·': 0.32, '—': 1, '–': 0.5, '…': 1, '’': 0.32, '“': 0.52, '”': 0.52 };
const WIDE_EM = 1.25;

/** Width in px of a run of text in a font. */
function runWidth(text: string, font: { size: number; bold: boolean }): number {
  const table = font.bold ? ASCII.bold : ASCII.regular;
  let em = 0;
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    em += code >= 32 && code < 127 ? table[code - 32]! : (OTHER_EM[c] ?? (code < 0x2000 ? 0.7 : WIDE_EM));
  }
  return em * font.size;
}
