import type { types } from '@slack/bolt';
import { flattenUntrusted } from '../../text/neutralize-plain-text.js';
import { atScanTime } from './at-scan-time.js';
import { ISO_TIME } from './date-tokens.js';
import { slackDate } from './slack-date.js';

type RichTextElement = types.RichTextElement;
type Style = types.RichTextText['style'];

/**
 * Cluster text as the elements of a rich_text block (pure). A rich_text `text` element is shown as the
 * characters it holds: Slack parses no mrkdwn in it, makes no link of a bare URL (a link is its own
 * `link` element) and no mention of `<!channel>`, `<@U…>` or `@here` (mentions are their own elements),
 * so nothing needs defusing — `*`, `_`, `~`, `https://` and `<…>` read as written. What is done:
 * control, bidi and zero-width characters are removed and line breaks become " ⏎ " (no forged line;
 * neutralize-plain-text.ts), the text is cut to `max` characters at a word, an age is restated as
 * before the scan, an "about" tilde is said in words, and every ISO time becomes a `date` element
 * (each reader's zone, its UTC fallback for clients without them). `style` (bold, italic) applies to
 * every element; empty text gives no element.
 */
export function richSentence(value: unknown, opts: { max: number; style?: Style }): RichTextElement[] {
  // Every output character comes from an input one: past this much input nothing more can show.
  const budget = opts.max * 8 + 1024;
  const raw = typeof value === 'string' ? value : flattenUntrusted(value);
  const flat = flattenUntrusted(raw.length > budget ? raw.slice(0, budget) : raw);
  const text = cutAtWord(atScanTime(flat).replace(/~(?=\d)/g, 'about '), opts.max);
  if (!text) return [];
  const style = opts.style ? { style: opts.style } : {};
  const out: RichTextElement[] = [];
  let at = 0;
  for (const m of text.matchAll(ISO_TIME)) {
    const seconds = Math.floor(Date.parse(m[0]) / 1000);
    const fallback = /\|([^>]*)>$/.exec(slackDate(m[0]) ?? '')?.[1];
    if (!Number.isFinite(seconds) || !fallback) continue;
    if (m.index > at) out.push({ type: 'text', text: text.slice(at, m.index), ...style });
    out.push({ type: 'date', timestamp: seconds, format: '{date_short_pretty} {time}', fallback, ...style });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ type: 'text', text: text.slice(at), ...style });
  return out;
}

/** At most `max` characters, ended at the last space that leaves most of it (never inside a time), with "…". */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max - 1);
  const end = space >= max * 0.8 ? space : max - 1;
  return `${text.slice(0, end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!) ? end - 1 : end)}…`;
}
