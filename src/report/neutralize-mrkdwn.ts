import { flattenUntrusted } from './neutralize-plain-text.js';

/**
 * The one neutralizer for untrusted text in Slack mrkdwn (issue 14, item 1; docs/security.md
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
 * - `scheme://` becomes `scheme[:]//`: a URL stays readable but is never auto-linked;
 * - the result is cut to `max` characters (default {@link DEFAULT_MAX_CHARS}), an ellipsis included,
 *   never inside an entity.
 * Message blocks are also sent with `verbatim: true` (slack/clamp-blocks.ts), which stops Slack's
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

/** A URL scheme followed by "://" (RFC 3986 scheme characters). */
const SCHEME = /([A-Za-z][A-Za-z0-9+.-]*):\/\//g;

const FULLWIDTH: Record<string, string> = { '*': '＊', _: '＿', '~': '～', '@': '＠' };
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const BACKTICK = 'ˋ';

/** Untrusted text as one inert mrkdwn line (see the module comment). Pure; never throws. */
export function neutralizeMrkdwn(value: unknown, opts: NeutralizeMrkdwnOptions = {}): string {
  const max = opts.max ?? DEFAULT_MAX_CHARS;
  const flat = flattenUntrusted(value).replace(SCHEME, '$1[:]//');
  // Every input character gives at least one output character: past max + 1 nothing more can show.
  return capTokens(tokens(flat.length > max + 1 ? flat.slice(0, max + 1) : flat, { markers: true }), max);
}

/**
 * Untrusted text for the inside of a ``` code block, which keeps its line breaks (a backup's JSON
 * is shown pretty-printed): entities, ˋ for backticks (the block cannot be closed early), `@` and
 * `scheme://` defused, control/bidi/zero-width characters removed; mrkdwn markers are left alone
 * because Slack does not format inside a code block. Cut to `max` (default {@link DEFAULT_MAX_CODE_CHARS}).
 */
export function neutralizeMrkdwnCode(value: unknown, opts: NeutralizeMrkdwnOptions = {}): string {
  const s = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  // Each line on its own, then joined by plain "\n": a CR, LS or PS cannot fake a break either.
  const lines = s.split(/\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/).map((line) => flattenUntrusted(line).replace(SCHEME, '$1[:]//'));
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i > 0) out.push('\n');
    out.push(...tokens(line, { markers: false }));
  });
  return capTokens(out, opts.max ?? DEFAULT_MAX_CODE_CHARS);
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
