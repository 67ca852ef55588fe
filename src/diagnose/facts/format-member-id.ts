import type { EtcdMember } from '../../cluster/snapshot.js';

/**
 * An etcd member id as etcdctl prints it in text (`member list`, `endpoint status -w table`):
 * lowercase hex of the uint64, no padding ("18249187646912138824" → "fd422379fda50e48"). The id
 * stays an exact decimal string everywhere else (JSON, remediation params); never a Number.
 */
export function formatMemberId(decimal: string): string {
  return /^\d+$/.test(decimal) ? BigInt(decimal).toString(16) : decimal;
}

/** "infra3 (fd422379fda50e48)", or the hex id alone for a member without a name (added, never started). */
export function describeMember(id: string, members: readonly EtcdMember[]): string {
  const name = members.find((m) => m.id === id)?.name;
  return name ? `${name} (${formatMemberId(id)})` : formatMemberId(id);
}
