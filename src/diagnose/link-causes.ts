import type { Finding } from './finding.js';

/**
 * Analyzers name the findings they believe caused theirs (`causedBy`, computed with
 * `fingerprint(cluster, id, subject)`). Keep only links to findings that are really in this
 * report, so a cause chain never points at something the reader cannot see.
 */
export function linkCauses(findings: Finding[]): Finding[] {
  const present = new Set(findings.map((f) => f.fingerprint));
  return findings.map((f) => {
    if (!f.causedBy) return f;
    const causedBy = f.causedBy.filter((fp) => fp !== f.fingerprint && present.has(fp));
    const { causedBy: _drop, ...rest } = f;
    return causedBy.length ? { ...rest, causedBy } : rest;
  });
}
