/** Clause boundaries of a why sentence: commas, semicolons, dashes, "and", "so". */
const CLAUSE = /(,\s+|;\s+|\s+—\s+|\s+and\s+|\s+so\s+)/;

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}/.-]+/gu, ' ')
    .trim();

/**
 * A why sentence without the clauses its title already says (pure): the card and the alert parent say
 * each fact once. A clause counts as said when the title contains it (case and punctuation aside);
 * what remains is joined with the connectors that led into each kept clause. Undefined when nothing
 * new remains.
 */
export function withoutRepeatedClauses(why: string, title: string): string | undefined {
  const said = norm(title);
  const parts = why.split(CLAUSE);
  const kept: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const clause = parts[i]!;
    const text = norm(clause);
    if (text.length >= 12 && said.includes(text)) continue;
    if (!text) continue;
    kept.push(kept.length > 0 ? `${parts[i - 1] ?? ' '}${clause}` : clause);
  }
  const out = kept.join('').trim();
  return out && norm(out).length >= 8 ? out : undefined;
}
