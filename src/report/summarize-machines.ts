import type { Snapshot } from '../cluster/snapshot.js';
import { readMachineHealth } from '../diagnose/facts/read-machine-health.js';

/**
 * The `machines` line: Machines by phase (a Machine being deleted counts as Deleting), and how many
 * are Ready (their Node, else their v1beta2 NodeReady / NodeHealthy / Ready condition: readMachineHealth)
 * out of those that report it at all.
 */
export function summarizeMachines(s: Snapshot): {
  summary: string;
  hasData: boolean;
  counted?: { ready: number; total: number };
} {
  const ms = s.capi.machines;
  if (!ms.length) return { summary: 'no Cluster API machines read', hasData: false };
  const phases = new Map<string, number>();
  // String(): a dump's phase may be any JSON type (fuzzed input); a label must not throw.
  for (const m of ms) {
    const p = m.metadata.deletionTimestamp ? 'Deleting' : String(m.status?.phase ?? 'Unknown');
    phases.set(p, (phases.get(p) ?? 0) + 1);
  }
  const running = phases.get('Running') ?? 0;
  const other = [...phases]
    .filter(([p]) => p !== 'Running')
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([p, n]) => `${n} ${p}`);
  const health = ms.map((m) => readMachineHealth(m, nodeOf(s, m.status?.nodeRef?.name)).status);
  const reported = health.filter((h) => h !== undefined).length;
  const healthy = reported ? `, ${health.filter((h) => h === 'True').length} of ${reported} Ready` : '';
  // Counted: Machines Ready of those that report it; without any report, Machines Running of all.
  const counted = reported
    ? { ready: health.filter((h) => h === 'True').length, total: reported }
    : { ready: running, total: ms.length };
  return {
    summary: `${running} of ${ms.length} Machines Running${other.length ? ` (${other.join(', ')})` : ''}${healthy}`,
    hasData: true,
    counted,
  };
}

function nodeOf(s: Snapshot, name: unknown) {
  return typeof name === 'string' ? s.nodes.find((n) => n.metadata.name === name) : undefined;
}
