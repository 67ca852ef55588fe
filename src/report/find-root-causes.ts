import type { Finding } from '../diagnose/finding.js';

/**
 * The chain from a finding to its deepest root cause, following `causedBy` (first link each step),
 * e.g. controlplane.degraded → controlplane.node-not-joined → etcd.member-mismatch. Cycles stop.
 */
export function findRootCauses(finding: Finding, all: readonly Finding[]): Finding[] {
  const byFp = new Map(all.map((f) => [f.fingerprint, f]));
  const chain: Finding[] = [];
  const seen = new Set([finding.fingerprint]);
  let current: Finding | undefined = finding;
  while (current?.causedBy?.length) {
    const next: Finding | undefined = current.causedBy
      .map((fp) => byFp.get(fp))
      .find((f): f is Finding => !!f && !seen.has(f.fingerprint));
    if (!next) break;
    seen.add(next.fingerprint);
    chain.push(next);
    current = next;
  }
  return chain;
}

/** "etcd.member-mismatch (tkc-apps-control-plane-n9xkq)" for a chain, root last, joined by " → ". */
export function describeCauseChain(chain: readonly Finding[]): string {
  return chain.map((f) => `${f.id} (${f.subject.name})`).join(' → ');
}
