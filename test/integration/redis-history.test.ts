import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ScanRecord } from '../../src/diagnose/history.js';
import { RedisHistory } from '../../src/store/redis-history.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
function scan(minutes: number, machine = 'm'): ScanRecord {
  return {
    at: new Date(T0 + minutes * 60_000).toISOString(),
    machines: [
      {
        namespace: 'ns',
        name: machine,
        owner: 'MachineSet/ms',
        controlPlane: false,
        phase: 'Running',
        deleting: false,
      },
    ],
    rollouts: [{ kind: 'MachineDeployment', namespace: 'ns', name: 'md-0', replicas: 3, updatedReplicas: 1 }],
    findings: [{ id: 'capi.recreation-loop', fingerprint: 'fp', severity: 'warning' }],
  };
}

describe('RedisHistory on a private redis-server', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const connect = () => {
    const c = new Redis(server.url);
    clients.push(c);
    return c;
  };
  // a fresh key prefix per test keeps tests independent on one server
  let prefix = '';
  const history = (opts: { retentionMinutes?: number; maxScans?: number } = {}) =>
    new RedisHistory(connect(), { keyPrefix: prefix, ...opts });

  beforeAll(async () => {
    server = await startRedis({ appendonly: true });
  });
  beforeEach(() => {
    prefix = `t-${randomUUID()}:`;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server?.stop();
  });

  it('loads appended records oldest first, per cluster, as one list under the prefix', async () => {
    const h = history();
    await h.append('prod', scan(0, 'a'));
    await h.append('prod', scan(1, 'b'));
    await h.append('dev', scan(2, 'c'));
    expect((await h.load('prod')).scans).toEqual([scan(0, 'a'), scan(1, 'b')]);
    expect((await h.load('dev')).scans).toEqual([scan(2, 'c')]);
    expect((await h.load('unknown')).scans).toEqual([]);
    const raw = connect();
    expect(await raw.type(`${prefix}history:prod`)).toBe('list');
    expect(await raw.llen(`${prefix}history:prod`)).toBe(2);
  });

  it('trims by count and by age relative to the newest record', async () => {
    const h = history({ retentionMinutes: 60, maxScans: 3 });
    for (const m of [0, 10, 30, 80]) await h.append('c', scan(m));
    expect((await h.load('c')).scans.map((s) => s.at)).toEqual([scan(30).at, scan(80).at]);
    for (const m of [81, 82, 83]) await h.append('c', scan(m));
    expect((await h.load('c')).scans.map((s) => s.at)).toEqual([scan(81).at, scan(82).at, scan(83).at]);
    // trimmed in Redis itself, not only filtered on load
    expect(await connect().llen(`${prefix}history:c`)).toBe(3);
  });

  it('skips a record with bad JSON instead of failing the load', async () => {
    const h = history();
    await h.append('x', scan(0));
    await connect().rpush(`${prefix}history:x`, '{not json', JSON.stringify({ at: 'no arrays' }));
    await h.append('x', scan(1));
    expect((await h.load('x')).scans).toEqual([scan(0), scan(1)]);
  });

  it('two instances (two workers) see the same history', async () => {
    const a = history();
    const b = history();
    await a.append('shared', scan(0, 'from-a'));
    await b.append('shared', scan(1, 'from-b'));
    expect((await a.load('shared')).scans.map((s) => s.machines[0]!.name)).toEqual(['from-a', 'from-b']);
    expect(await b.load('shared')).toEqual(await a.load('shared'));
  });

  it('survives a reconnect: redis-server restarted, the same instance reads and writes on', async () => {
    const h = history();
    await h.append('r', scan(0));
    await server.kill(); // SIGTERM: the AOF is flushed
    await server.restart();
    await h.append('r', scan(1));
    expect((await h.load('r')).scans).toEqual([scan(0), scan(1)]);
  });
});
