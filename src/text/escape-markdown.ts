/**
 * Characters with a meaning in CommonMark / GitHub Markdown (a table cell's `|` included), escaped with a
 * backslash. `(` `)` are left alone: with `[` `]` escaped no link or image can form, and the text stays
 * readable in the raw Markdown too.
 */
const SPECIAL = /[\\`*_[\]<>#!|~&@]/g;

/**
 * Untrusted text (anything from a cluster, an API error, a Slack user id, a finding built from them) made
 * inert for a Markdown document (the incident timeline): control characters removed, newlines
 * and runs of whitespace collapsed to one space (a line break would end a table row or start a heading),
 * every Markdown special character backslash-escaped (no links, images, HTML, code spans, emphasis,
 * mentions or table breaks can be injected), cut to `max` characters with "…". CommonMark lets a
 * backslash escape any ASCII punctuation, so the text reads exactly as it was once rendered.
 */
export function escapeMarkdown(text: string, max = 300): string {
  // eslint-disable-next-line no-control-regex
  const flat = String(text).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut.replace(SPECIAL, (c) => `\\${c}`);
}
