import { FORGED } from './hostile-text.js';
import { DEFAULT_RUNBOOK_BASE_URL } from '../../src/config/config-schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Every text of a message as Slack would parse it. */
export interface MessageTexts {
  /** Text objects of type mrkdwn, with their verbatim flag. */
  mrkdwn: { text: string; verbatim: boolean }[];
  /** plain_text objects (header, buttons, modal titles). */
  plain: string[];
  /** Top-level `text` (fallback / ephemeral reply): mrkdwn without a verbatim option. */
  top?: string;
  /**
   * rich_text blocks: their inline elements (Slack shows a `text` element as its characters, parsing no
   * mrkdwn, link or mention in it) and their lines as a reader sees them (a quote's lines led by "> ", a
   * list item's by "• ", its further lines by two spaces; a date as its fallback, a link as its label).
   */
  rich: { elements: Any[]; lines: string[] }[];
}

/** Walk a message (or a view) and collect its texts. */
export function collectTexts(message: { text?: unknown; blocks?: unknown }): MessageTexts {
  const out: MessageTexts = { mrkdwn: [], plain: [], rich: [] };
  if (typeof message.text === 'string') out.top = message.text;
  const walk = (v: Any) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    if (v.type === 'rich_text') return void out.rich.push(richText(v));
    if (v.type === 'mrkdwn' && typeof v.text === 'string')
      out.mrkdwn.push({ text: v.text, verbatim: v.verbatim === true });
    else if (v.type === 'plain_text' && typeof v.text === 'string') out.plain.push(v.text);
    for (const [k, x] of Object.entries(v)) if (k !== 'text' || typeof x === 'object') walk(x);
  };
  walk(message.blocks);
  return out;
}

/** A rich_text block's inline elements and visible lines. */
function richText(block: Any): { elements: Any[]; lines: string[] } {
  const elements: Any[] = [];
  const inline = (els: Any[] = []) =>
    els
      .map((e) => {
        elements.push(e);
        if (e.type === 'text') return String(e.text);
        if (e.type === 'date') return String(e.fallback);
        if (e.type === 'link') return String(e.text ?? e.url);
        if (e.type === 'emoji') return `:${e.name}:`;
        if (e.type === 'user') return `<@${e.user_id}>`;
        return `[${e.type}]`;
      })
      .join('');
  const lines: string[] = [];
  for (const s of block.elements ?? []) {
    // A preformatted block (an exported timeline) is code shown verbatim: its text is the export's own concern.
    if (s.type === 'rich_text_preformatted') continue;
    if (s.type === 'rich_text_list')
      for (const item of s.elements ?? []) {
        const [first, ...rest] = inline(item.elements).split('\n');
        lines.push(`• ${first}`, ...rest.map((l) => `  ${l}`));
      }
    else if (s.type === 'rich_text_quote')
      lines.push(
        ...inline(s.elements)
          .split('\n')
          .map((l) => `> ${l}`),
      );
    else lines.push(...inline(s.elements).split('\n'));
  }
  return { elements, lines };
}

/** Our own markup a message may contain: user mentions of these ids, and Slack's date token. */
export interface InspectOptions {
  mentions?: readonly string[];
  /** User-group ids whose `<!subteam^S…>` mention is ours (an approval message's approver groups). */
  groups?: readonly string[];
  /** The runbook base URL whose `<BASE/docs/diagnosis.md#anchor|runbook>` links are ours (default: the default). */
  runbookBaseUrl?: string;
}

/** slack-date.ts's token: epoch seconds, our format, a UTC fallback ("2025-03-01 10:00 UTC") or an ISO one. */
const DATE_TOKEN = /^<!date\^\d+\^\{date_short_pretty\} \{time\}\|[0-9TZ:. UTC-]+>/;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What an attacker got through, as readable problems (empty = nothing). Parses the produced mrkdwn:
 * every `<` must open a token of ours (a mention of an allowed id, a date), ``` must be balanced,
 * no line may start with the forged marker, no control/bidi/zero-width character, no bare
 * `@here`-style word, no `scheme://`, no hostile bold/italic/strike/code marker pair, and every
 * mrkdwn block text must be verbatim (no auto-linking by Slack).
 */
export function findInjections(message: { text?: unknown; blocks?: unknown }, opts: InspectOptions = {}): string[] {
  const problems: string[] = [];
  const t = collectTexts(message);
  const allowedMention = new Set([
    ...(opts.mentions ?? []).map((id) => `<@${id}>`),
    ...(opts.groups ?? []).map((id) => `<!subteam^${id}>`),
  ]);
  // Our runbook links: exactly the base, our path, a slug anchor, the word "runbook". Removed before
  // the checks (they are the only `://` a message may hold); anything else that looks like a link stays.
  const runbook = new RegExp(
    `<${escapeRe((opts.runbookBaseUrl ?? DEFAULT_RUNBOOK_BASE_URL).replace(/\/+$/, ''))}/docs/diagnosis\\.md#[a-z0-9_-]+\\|runbook>`,
    'g',
  );
  const checkMrkdwn = (raw: string, where: string) => {
    const text = raw.replace(runbook, 'runbook');
    for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) {
      const rest = text.slice(i);
      const mention = /^<(?:@|!subteam\^)[A-Z0-9]+>/.exec(rest)?.[0];
      if (mention && allowedMention.has(mention)) continue;
      if (DATE_TOKEN.test(rest)) continue;
      problems.push(`${where}: active markup ${JSON.stringify(rest.slice(0, 40))}`);
    }
    if ((text.match(/```/g)?.length ?? 0) % 2 !== 0)
      problems.push(`${where}: unbalanced \`\`\` in ${JSON.stringify(text.slice(0, 80))}`);
    for (const line of text.split('\n')) {
      if (line.replace(/^[\s>•]*/, '').startsWith(FORGED))
        problems.push(`${where}: forged line ${JSON.stringify(line.slice(0, 60))}`);
    }
    checkCommon(text, where);
    // Slack does not format inside a code block: only the text outside them can be restyled.
    const outsideCode = text
      .split('```')
      .filter((_, i) => i % 2 === 0)
      .join(' ');
    for (const marker of ['*EVIL-BOLD*', '_EVIL-ITALIC_', '~EVIL-STRIKE~', '`EVIL-CODE`']) {
      if (outsideCode.includes(marker)) problems.push(`${where}: hostile formatting ${marker}`);
    }
  };
  const checkCommon = (text: string, where: string) => {
    const bad = /[\p{Cf}\p{Cs}]|[^\P{Cc}\n]/u.exec(text);
    if (bad)
      problems.push(
        `${where}: invisible or control character U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')}`,
      );
    const word = /(?:^|[^\p{L}\p{N}])@(here|channel|everyone|boss)\b/iu.exec(text);
    if (word) problems.push(`${where}: bare mention word ${JSON.stringify(word[0])}`);
    const url = text.indexOf('://');
    if (url !== -1) problems.push(`${where}: live URL ${JSON.stringify(text.slice(Math.max(0, url - 10), url + 10))}`);
  };
  t.mrkdwn.forEach((m, i) => {
    checkMrkdwn(m.text, `mrkdwn[${i}]`);
    if (!m.verbatim) problems.push(`mrkdwn[${i}]: not verbatim`);
  });
  if (t.top !== undefined) checkMrkdwn(t.top, 'text');
  t.plain.forEach((p, i) => {
    if (p.includes('\n')) problems.push(`plain[${i}]: a line break`);
    checkCommon(p, `plain[${i}]`);
  });
  // rich_text: a `text` element is shown as its characters (no mrkdwn, link or mention is parsed in it), so only
  // what changes what is shown counts: invisible or control characters, a forged line, and any element that links,
  // mentions or dates other than ours.
  t.rich.forEach((r, i) => {
    const where = `rich[${i}]`;
    for (const e of r.elements) {
      if (e.type === 'text') {
        const bad = /[\p{Cf}\p{Cs}]|[^\P{Cc}\n]/u.exec(String(e.text));
        if (bad)
          problems.push(
            `${where}: invisible or control character U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')}`,
          );
      } else if (e.type === 'link') {
        if (!new RegExp(`^${runbook.source}$`).test(`<${e.url}|${e.text}>`))
          problems.push(`${where}: a link not ours ${JSON.stringify(e.url)}`);
      } else if (e.type === 'date') {
        if (!Number.isInteger(e.timestamp) || !/^[0-9: -]+ UTC$/.test(String(e.fallback)))
          problems.push(`${where}: a date not ours ${JSON.stringify(e)}`);
      } else if (e.type === 'emoji') {
        if (!/^[a-z0-9_+-]+$/.test(String(e.name)))
          problems.push(`${where}: an emoji not ours ${JSON.stringify(e.name)}`);
      } else if (!(e.type === 'user' && allowedMention.has(`<@${e.user_id}>`)))
        problems.push(`${where}: active element ${JSON.stringify(e).slice(0, 60)}`);
    }
    for (const line of r.lines)
      if (
        line
          .replace(/^(> |• | {2})/, '')
          .trimStart()
          .startsWith(FORGED)
      )
        problems.push(`${where}: forged line ${JSON.stringify(line.slice(0, 60))}`);
  });
  return problems;
}

/** The lines of a message's texts (mrkdwn, top-level text, plain_text, and rich_text as a reader sees it). */
export function linesOf(message: { text?: unknown; blocks?: unknown }): string[] {
  const t = collectTexts(message);
  return [
    ...[...t.mrkdwn.map((m) => m.text), ...(t.top !== undefined ? [t.top] : []), ...t.plain].flatMap((x) =>
      x.split('\n'),
    ),
    ...t.rich.flatMap((r) => r.lines),
  ];
}
