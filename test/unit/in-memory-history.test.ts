import { describe, expect, it } from '@jest/globals';
import type { ScanRecord } from '../../src/diagnose/history.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (minutes: number): ScanRecord => ({
  at: new Date(T0 + minutes * 60_000).toISOString(),
  machines: [],
  rollouts: [],
  findings: [],
});

describe('InMemoryHistory', () => {
  it('loads appended scans oldest first, per cluster', async () => {
    const h = new InMemoryHistory();
    await h.append('a', at(0));
    await h.append('b', at(5));
    await h.append('a', at(1));
    expect((await h.load('a')).scans.map((s) => s.at)).toEqual([at(0).at, at(1).at]);
    expect((await h.load('b')).scans).toEqual([at(5)]);
    expect((await h.load('none')).scans).toEqual([]);
  });

  it('drops scans older than the retention window relative to the newest scan, and beyond maxScans', async () => {
    const h = new InMemoryHistory({ retentionMinutes: 60, maxScans: 3 });
    for (const m of [0, 10, 30, 80]) await h.append('c', at(m));
    // 80 - 60 = 20: the scans at 0 and 10 are out of the window
    expect((await h.load('c')).scans.map((s) => s.at)).toEqual([at(30).at, at(80).at]);
    for (const m of [81, 82, 83]) await h.append('c', at(m));
    expect((await h.load('c')).scans.map((s) => s.at)).toEqual([at(81).at, at(82).at, at(83).at]);
  });

  it('keeps replayed old dumps: age is measured against the newest scan, not the wall clock', async () => {
    const h = new InMemoryHistory();
    const old = { ...at(0), at: '2019-06-01T00:00:00.000Z' };
    await h.append('old', old);
    expect((await h.load('old')).scans).toEqual([old]);
  });

  it('stores copies: mutating a record after append or after load does not change history', async () => {
    const h = new InMemoryHistory();
    const r = at(0);
    await h.append('d', r);
    r.findings.push({ id: 'node.not-ready', fingerprint: 'x', severity: 'warning' });
    (await h.load('d')).scans[0]!.machines.push({
      namespace: 'n',
      name: 'm',
      owner: '',
      controlPlane: false,
      deleting: false,
    });
    expect((await h.load('d')).scans).toEqual([at(0)]);
  });
});
