// Slack mrkdwn → a small node tree (no DOM here, so it runs in tests too). The page turns the tree into
// DOM nodes with textContent only: nothing the bot or a cluster wrote is ever parsed as HTML.
// Rules follow api.slack.com/reference/surfaces/formatting: &amp; &lt; &gt; escapes; <@U…>, <#C…|name>,
// <!here>, <!subteam^S…|@name>, <!date^ts^format^link|fallback>, <url|label>; *bold* _italic_ ~strike~
// at word boundaries; `code`; ```pre```; > quote at a line start; :emoji:.

/** The emoji the bot writes (and a few common ones); anything else stays as its :name:. */
export const EMOJI = {
  white_check_mark: '✅',
  x: '❌',
  warning: '⚠️',
  wrench: '🔧',
  red_circle: '🔴',
  hourglass_flowing_sand: '⏳',
  no_entry_sign: '🚫',
  no_entry: '⛔',
  information_source: 'ℹ️',
  white_circle: '⚪',
  repeat: '🔁',
  recycle: '♻️',
  mag: '🔍',
  link: '🔗',
  large_yellow_circle: '🟡',
  large_green_circle: '🟢',
  gear: '⚙️',
  arrow_up: '⬆️',
  arrow_down: '⬇️',
  alarm_clock: '⏰',
  eyes: '👀',
  fire: '🔥',
  rotating_light: '🚨',
  heavy_check_mark: '✔️',
  large_blue_circle: '🔵',
  orange_circle: '🟠',
  hourglass: '⌛',
  lock: '🔒',
  bell: '🔔',
  zzz: '💤',
  raising_hand: '🙋',
  scroll: '📜',
  double_vertical_bar: '⏸️',
  twisted_rightwards_arrows: '🔀',
  large_orange_circle: '🟠',
  grey_question: '❔',
  bar_chart: '📊',
  mute: '🔇',
  loud_sound: '🔊',
};

/** Slack's three escapes, undone for display (the text is then shown as text, never as HTML). */
export function unescapeSlack(s) {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Parse mrkdwn into nodes: { t:
 * 'text'|'b'|'i'|'s'|'code'|'pre'|'quote'|'br'|'user'|'channel'|'special'|'group'|'date'|'link'|'emoji', … }.
 */
export function parseMrkdwn(src) {
  const out = [];
  const text = String(src ?? '');
  // Code blocks first: nothing inside them is formatted.
  const parts = text.split(/```/);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i % 2 === 1 && i < parts.length - 1) {
      out.push({ t: 'pre', v: unescapeSlack(part.replace(/^\n/, '')) });
      continue;
    }
    // An unclosed ``` is literal text.
    const chunk = i % 2 === 1 ? '```' + part : part;
    out.push(...parseLines(chunk));
  }
  return out;
}

function parseLines(chunk) {
  const out = [];
  const lines = chunk.split('\n');
  let quote = null;
  lines.forEach((line, n) => {
    const q = /^(?:>|&gt;) ?(.*)$/.exec(line);
    if (q) {
      if (!quote) {
        quote = { t: 'quote', c: [] };
        out.push(quote);
      } else quote.c.push({ t: 'br' });
      quote.c.push(...parseInline(q[1]));
      return;
    }
    if (quote) quote = null;
    else if (n > 0) out.push({ t: 'br' });
    out.push(...parseInline(line));
  });
  return out;
}

// Earliest match wins; formatting markers need a boundary before the opener and after the closer.
const INLINE = [
  ['angle', /<([^<>\n]+)>/],
  ['code', /`([^`\n]+)`/],
  ['b', /(^|[\s([{"'])\*(?!\s)([^*\n]*?[^\s*])\*(?=$|[\s.,;:!?)\]}"'-])/],
  ['i', /(^|[\s([{"'])_(?!\s)([^_\n]*?[^\s_])_(?=$|[\s.,;:!?)\]}"'-])/],
  ['s', /(^|[\s([{"'])~(?!\s)([^~\n]*?[^\s~])~(?=$|[\s.,;:!?)\]}"'-])/],
  ['emoji', /:([a-z0-9_+-]+):/],
];

export function parseInline(s) {
  const out = [];
  let rest = s;
  while (rest) {
    let best = null;
    for (const [kind, re] of INLINE) {
      const m = re.exec(rest);
      if (!m) continue;
      const lead = kind === 'b' || kind === 'i' || kind === 's' ? m[1].length : 0;
      const at = m.index + lead;
      if (!best || at < best.at) best = { kind, m, at, lead };
    }
    if (!best) {
      out.push({ t: 'text', v: unescapeSlack(rest) });
      break;
    }
    if (best.at > 0) out.push({ t: 'text', v: unescapeSlack(rest.slice(0, best.at)) });
    const { kind, m } = best;
    if (kind === 'angle') out.push(parseAngle(m[1]));
    else if (kind === 'code') out.push({ t: 'code', v: unescapeSlack(m[1]) });
    else if (kind === 'emoji')
      out.push(EMOJI[m[1]] ? { t: 'emoji', name: m[1], v: EMOJI[m[1]] } : { t: 'text', v: m[0] });
    else out.push({ t: kind, c: parseInline(m[2]) });
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

/** `<…>`: a mention, a channel, a special mention, a date, or a link (anything else is shown as it was). */
function parseAngle(inner) {
  const bar = inner.indexOf('|');
  const head = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? unescapeSlack(inner.slice(bar + 1)) : undefined;
  if (/^@[UW][A-Z0-9]+$/.test(head)) return { t: 'user', id: head.slice(1), label };
  if (/^#C[A-Z0-9]+$/.test(head)) return { t: 'channel', id: head.slice(1), label };
  if (head.startsWith('!date^')) {
    const [, ts, format, link] = head.split('^');
    return { t: 'date', ts: Number(ts), format: format ?? '', link, fallback: label ?? '' };
  }
  if (head.startsWith('!subteam^')) return { t: 'group', id: head.slice('!subteam^'.length), label };
  if (/^!(here|channel|everyone)$/.test(head)) return { t: 'special', v: head.slice(1) };
  if (/^(https?:\/\/|mailto:)/i.test(head))
    return {
      t: 'link',
      url: unescapeSlack(head),
      c: label ? [{ t: 'text', v: label }] : [{ t: 'text', v: unescapeSlack(head) }],
    };
  return { t: 'text', v: `<${unescapeSlack(inner)}>` };
}

/**
 * A `<!date^…>` token as the viewer sees it, in the viewer's time zone and locale
 * (api.slack.com/reference/surfaces/formatting#date-formatting). `now` is the sandbox clock, so
 * "today" and "ago" follow the simulated cluster time.
 */
export function formatSlackDate(tsSeconds, format, now, opts = {}) {
  if (!Number.isFinite(tsSeconds)) return undefined;
  const d = new Date(tsSeconds * 1000);
  const locale = opts.locale;
  const timeZone = opts.timeZone;
  const f = (o) => new Intl.DateTimeFormat(locale, { timeZone, ...o }).format(d);
  const dayKey = (x) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(x);
  const pretty = (fallback) => {
    const n = now instanceof Date ? now : new Date();
    const day = 86_400_000;
    if (dayKey(d) === dayKey(n)) return 'today';
    if (dayKey(d) === dayKey(new Date(n.getTime() - day))) return 'yesterday';
    if (dayKey(d) === dayKey(new Date(n.getTime() + day))) return 'tomorrow';
    return fallback();
  };
  const tokens = {
    date_num: () => dayKey(d),
    date: () => f({ year: 'numeric', month: 'long', day: 'numeric' }),
    date_short: () => f({ year: 'numeric', month: 'short', day: 'numeric' }),
    date_long: () => f({ weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
    date_pretty: () => pretty(tokens.date),
    date_short_pretty: () => pretty(tokens.date_short),
    date_long_pretty: () => pretty(tokens.date_long),
    time: () => f({ hour: 'numeric', minute: '2-digit' }),
    time_secs: () => f({ hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    ago: () => formatAgo(d, now instanceof Date ? now : new Date()),
  };
  return format.replace(/\{([a-z_]+)\}/g, (all, name) => (tokens[name] ? tokens[name]() : all));
}

function formatAgo(d, now) {
  const s = Math.round((now.getTime() - d.getTime()) / 1000);
  const abs = Math.abs(s);
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.round(abs / 60), 'minute']
        : abs < 86400
          ? [Math.round(abs / 3600), 'hour']
          : [Math.round(abs / 86400), 'day'];
  const words = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return s >= 0 ? `${words} ago` : `in ${words}`;
}
