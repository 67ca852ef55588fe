import { flattenUntrusted } from './neutralize-plain-text.js';
import { truncate } from './truncate.js';

/**
 * The one neutralizer for untrusted text in Slack mrkdwn (docs/security.md
 * "Untrusted text in Slack messages"). Everything that did not come from our own code — condition
 * and event messages, annotations, object names, webhook and backup JSON, API error bodies, plan
 * labels, etcd member names, partial-entry errors — goes through here before it is placed in a
 * mrkdwn text, so that it renders as the characters it is and nothing else:
 *
 * - `&`, `<`, `>` become entities (Slack's "Escaping text"): no `<!channel>`, `<!here>`, `<@U…>`,
 *   `<#C…>`, `<!subteam^…>`, `<https://…|click>`, and no `>` block quote;
 * - line breaks become " ⏎ " (no forged "*Cause:* …" or "Approved by …" line), ANSI sequences,
 *   control, bidi and zero-width characters are removed (neutralize-plain-text.ts);
 * - a backtick becomes ˋ (U+02CB): no code span opens, no ``` closes the block it sits in;
 * - `*`, `_`, `~` that could open or close bold/italic/strike (not between two letters or digits)
 *   become their fullwidth forms ＊ ＿ ～, so `snake_case` stays as it is;
 * - `@` starting a word becomes ＠ (no `@here`, `@channel`, `@everyone` or `@name` mention parsed
 *   where Slack still parses them: top-level `text` and ephemeral replies);
 * - `://` becomes `[:]//`: a URL stays readable (`https[:]//host`) but is never auto-linked;
 * - the result is cut to `max` characters (default {@link DEFAULT_MAX_CHARS}), an ellipsis included,
 *   never inside an entity.
 * Message blocks are also sent with `verbatim: true` (slack/render/clamp-blocks.ts), which stops Slack's
 * own auto-linking; this function does not rely on that.
 */

/** Options of {@link neutralizeMrkdwn} and {@link neutralizeMrkdwnCode}. */
export interface NeutralizeMrkdwnOptions {
  /** At most this many characters come out, "…" included. */
  max?: number;
}

/** The default cap of one untrusted value in a mrkdwn text. */
export const DEFAULT_MAX_CHARS = 500;

/** The default cap of an untrusted code block (a backup's JSON, a plan's API calls). */
export const DEFAULT_MAX_CODE_CHARS = 2800;

/**
 * The "://" of a URL: defused whatever the scheme before it. (Matching the scheme itself,
 * `[a-z][a-z0-9+.-]*://`, backtracks quadratically over a long run of letters: a 300 KB event
 * message would stall the renderer.)
 */
const SCHEME_SEPARATOR = /:\/\//g;
const DEFANGED_SEPARATOR = '[:]//';

/**
 * How much of a raw value is looked at: every character of the output comes from at least one of
 * the input, and ANSI sequences, controls and invisible characters (removed) rarely make up more
 * than this. Keeps a 300 KB value from costing more than a short one.
 */
const rawBudget = (max: number) => max * 8 + 1024;

function rawString(value: unknown, max: number): string {
  // Any other value as JavaScript prints it, its own toString included (an object without one reads
  // "[object Object]", which is inert): the cast only tells the linter that this is deliberate.
  const s =
    typeof value === 'string'
      ? value
      : value === undefined || value === null
        ? ''
        : String(value as { toString(): string });
  return s.length > rawBudget(max) ? s.slice(0, rawBudget(max)) : s;
}

const FULLWIDTH: Record<string, string> = { '*': '＊', _: '＿', '~': '～', '@': '＠' };
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const BACKTICK = 'ˋ';

/** Untrusted text as one inert mrkdwn line (see the module comment). Pure; never throws. */
export function neutralizeMrkdwn(value: unknown, opts: NeutralizeMrkdwnOptions = {}): string {
  const max = opts.max ?? DEFAULT_MAX_CHARS;
  const flat = flattenUntrusted(rawString(value, max)).replace(SCHEME_SEPARATOR, DEFANGED_SEPARATOR);
  // Every input character gives at least one output character: past max + 1 nothing more can show.
  return capTokens(tokens(flat.length > max + 1 ? flat.slice(0, max + 1) : flat, { markers: true }), max);
}

/**
 * Untrusted text for the inside of a ``` code block, which keeps its "\n" line breaks (a backup's
 * JSON is shown pretty-printed, and JSON.stringify escapes every "\n" inside a string, so those
 * breaks are the JSON's own): entities, ˋ for backticks (the block cannot be closed early), `@` and
 * `scheme://` defused, control/bidi/zero-width characters removed, and every other kind of line
 * break (CR, LS, PS, NEL — JSON leaves U+2028/2029 unescaped) shown as " ⏎ " on its line; mrkdwn
 * markers are left alone because Slack does not format inside a code block. Cut to `max` (default
 * {@link DEFAULT_MAX_CODE_CHARS}). For one line (an API call), flatten it first (neutralizePlainText).
 */
export function neutralizeMrkdwnCode(value: unknown, opts: NeutralizeMrkdwnOptions = {}): string {
  const max = opts.max ?? DEFAULT_MAX_CODE_CHARS;
  const lines = rawString(value, max)
    .split(/\r?\n/)
    .map((line) => flattenUntrusted(line).replace(SCHEME_SEPARATOR, DEFANGED_SEPARATOR));
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i > 0) out.push('\n');
    out.push(...tokens(line, { markers: false }));
  });
  return capTokens(out, max);
}

/** The output pieces of a flattened line, one per input character (an entity is one piece). */
function tokens(flat: string, opts: { markers: boolean }): string[] {
  const chars = Array.from(flat);
  return chars.map((c, i) => {
    const entity = ENTITY[c];
    if (entity) return entity;
    if (c === '`') return BACKTICK;
    if (c === '@') return isWordChar(chars[i - 1]) ? c : FULLWIDTH[c]!;
    if (opts.markers && (c === '*' || c === '_' || c === '~')) {
      // Slack only formats at a word boundary: a marker between two letters/digits is inert.
      return isWordChar(chars[i - 1]) && isWordChar(chars[i + 1]) ? c : FULLWIDTH[c]!;
    }
    return c;
  });
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

/** Join pieces up to `max` characters; when they do not all fit, end with "…" (never cut a piece). */
function capTokens(pieces: string[], max: number): string {
  let total = 0;
  for (const p of pieces) total += p.length;
  if (total <= max) return pieces.join('');
  let out = '';
  for (const p of pieces) {
    if (out.length + p.length > max - 1) break;
    out += p;
  }
  return max < 1 ? '' : `${out}…`;
}

/** Our opaque ids (request `r_…`, proposal `p_…`, plan hashes, fingerprints): base64url or hex. */
const OPAQUE_ID = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * An id our code generated, read back from Redis: shown exactly when it has the shape of our ids
 * (base64url characters cannot mention, link or add a line, and people copy ids), neutralized otherwise.
 */
export function neutralizeMrkdwnId(value: unknown): string {
  return typeof value === 'string' && OPAQUE_ID.test(value) ? value : neutralizeMrkdwn(value, { max: 80 });
}

/**
 * Untrusted text for a Slack `plain_text` element (header, button, modal): one line without
 * control/bidi/zero-width characters (neutralize-plain-text.ts); `scheme://` and a word-initial `@`
 * defused as in mrkdwn (Slack does not parse plain_text, but a client or a copy into mrkdwn might);
 * no entities (plain_text shows `&lt;` as it is).
 */
export function neutralizeSlackPlainText(value: unknown, opts: NeutralizeMrkdwnOptions = {}): string {
  const raw = opts.max === undefined ? value : rawString(value, opts.max);
  const flat = flattenUntrusted(raw)
    .replace(SCHEME_SEPARATOR, DEFANGED_SEPARATOR)
    .replace(/(^|[^\p{L}\p{N}])@/gu, '$1＠');
  return truncate(flat, opts.max);
}

/**
 * A count or number read back from Redis (a request's `required`, a tally): shown as the number when
 * it is a finite number, neutralized otherwise. Redis is not trusted: a `required` stored
 * as `"<!channel>"` must not reach a message as markup.
 */
export function neutralizeMrkdwnNumber(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : neutralizeMrkdwn(value, { max: 20 });
}

/**
 * One of our own words read back from Redis (a report's or section's status, a request's status):
 * shown as it is when it is one of `known`, neutralized otherwise (it was written by someone else).
 */
export function neutralizeMrkdwnWord(value: unknown, known: readonly string[]): string {
  return typeof value === 'string' && known.includes(value) ? value : neutralizeMrkdwn(value, { max: 20 });
}
