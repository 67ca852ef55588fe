import { truncate } from './truncate.js';

/**
 * Untrusted text made inert for places that show it as plain characters: a terminal, a log line a
 * person reads, a Slack `plain_text` element. Text from a cluster or an API error
 * can carry ANSI escapes (recolour or rewrite a terminal line), newlines (forge a whole line of our
 * output), bidi overrides and zero-width characters (show something other than what is stored).
 * Slack mrkdwn needs more than this: `neutralizeMrkdwn` (neutralize-mrkdwn.ts) builds on it.
 */

/** Options of {@link neutralizePlainText}. */
export interface NeutralizePlainTextOptions {
  /** At most this many characters come out, an ellipsis included (default: no cap). */
  max?: number;
}

/** What a run of line breaks becomes: the text stays on the line it belongs to, and a reader sees it had several. */
export const LINE_BREAK_MARK = ' ⏎ ';

/**
 * ANSI/VT sequences: CSI (`ESC [` … final byte, also the one-byte C1 CSI), OSC (`ESC ]` … BEL or ST,
 * which can set a terminal title or a hyperlink) and the two-byte escapes. Removed whole, so their
 * parameters ("[31m") do not stay behind as text.
 */
const ANSI_SEQUENCE =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-Z\\-_]?/g;

/** Every kind of line break Slack, terminals or editors honour (CR LF, CR, LF, VT, FF, NEL, LS, PS). */
const LINE_BREAKS = /(?:\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029])+/g;

/**
 * What is removed outright: control characters (Cc, tab included — it becomes a space first) and
 * format characters (Cf: bidi embeddings/overrides/isolates, zero-width space/joiners, word joiner,
 * BOM, soft hyphen, tag characters).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/** A lone UTF-16 surrogate (cut text, or a forged string) is not valid text for Slack's JSON parser. */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * The common first step for every untrusted string, uncapped: coerce to a string, drop ANSI
 * sequences, turn every run of line breaks into {@link LINE_BREAK_MARK}, tabs into spaces, and remove
 * control and invisible format characters.
 */
export function flattenUntrusted(value: unknown): string {
  // Any other value as JavaScript prints it, its own toString included (an object without one reads
  // "[object Object]", which is inert): the cast only tells the linter that this is deliberate.
  const s =
    typeof value === 'string'
      ? value
      : value === undefined || value === null
        ? ''
        : String(value as { toString(): string });
  return s
    .replace(ANSI_SEQUENCE, '')
    .replace(LINE_BREAKS, LINE_BREAK_MARK)
    .replace(/\t/g, ' ')
    .replace(INVISIBLE, '')
    .replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Untrusted text as one inert line of plain characters (see the module comment), cut to `max`
 * characters with an ellipsis. Pure; never throws, whatever the input's type.
 */
export function neutralizePlainText(value: unknown, opts: NeutralizePlainTextOptions = {}): string {
  return truncate(flattenUntrusted(value), opts.max);
}
