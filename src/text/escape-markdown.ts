/**
 * Characters with a meaning in CommonMark / GitHub Markdown (a table cell's `|` included), escaped with a
 * backslash. `(` `)` are left alone: with `[` `]` escaped no link or image can form, and the text stays
 * readable in the raw Markdown too.
 */
const SPECIAL = /[\\`*_[\]<>#!|~&@]/g;

/**
 * What GitHub Markdown turns into a link without any markup (its autolink extension): a scheme URL, a
 * `www.` address, `mailto:`/`xmpp:` addresses. Backslash escapes do not stop it, so such a run is put in
 * a code span, where nothing autolinks and the text reads as it was.
 */
const AUTOLINK = /(?:\b[a-z][a-z0-9+.-]{1,31}:\/\/|\bwww\.|\b(?:mailto|xmpp):)\S*/gi;

/**
 * The one Markdown neutralizer: untrusted text (anything from a cluster, an API error, a Slack user
 * id, a stored record, a finding built from them) made inert for a Markdown document (the incident
 * timeline): control characters removed, newlines and runs of whitespace collapsed to one space (a line
 * break would end a table row or start a heading), every Markdown special character backslash-escaped
 * (no links, images, HTML, code spans, emphasis, mentions or table breaks can be injected), bare URLs
 * and `www.` addresses put in a code span (with `` ` `` and `|` percent-encoded in it, so it neither
 * ends early nor breaks a table row), cut to `max` characters with "…". CommonMark lets a backslash
 * escape any ASCII punctuation, so the text reads exactly as it was once rendered.
 */
export function escapeMarkdown(text: unknown, max = 300): string {
  const flat = String(text)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  let out = '';
  let last = 0;
  for (const m of cut.matchAll(AUTOLINK)) {
    out += escapeSpecials(cut.slice(last, m.index));
    // Trailing punctuation stays outside, as GitHub's autolinker leaves it (a link in parentheses).
    const url = m[0].replace(/[).,;:!?'"*_~\]>]+$/, '') || m[0];
    out += `\`${url.replace(/`/g, '%60').replace(/\|/g, '%7C')}\``;
    last = m.index! + url.length;
  }
  return out + escapeSpecials(cut.slice(last));
}

function escapeSpecials(s: string): string {
  return s.replace(SPECIAL, (c) => `\\${c}`);
}
