import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ClusterFingerprint } from '../../src/diagnose/changes/cluster-fingerprint.js';
import {
  createRedisBaselineStore,
  MAX_BASELINE_BYTES,
  MAX_CHANGE_RECORDS,
  type ChangeRecord,
} from '../../src/store/baseline-store.js';
import { useRedis } from '../support/use-redis.js';
import { captureLogs } from '../support/capture-logs.js';

const fp = (at: string, n = 1): ClusterFingerprint => ({
  cluster: 'c1',
  at,
  objects: Array.from({ length: n }, (_, i) => ({ kind: 'Node', name: `n${i}`, uid: `u${i}` })),
});
const record = (at: string, name = 'db'): ChangeRecord => ({
  at,
  baselineAt: '2025-03-04T09:00:00Z',
  changes: [{ kind: 'PodDisruptionBudget', namespace: 'shop', name, change: 'added', detail: 'added', rank: 0 }],
});

describe('Redis baseline store (last healthy fingerprint and the changes seen since)', () => {
  const db = useRedis();

  it('keeps one baseline per cluster, replaced by the next healthy scan; a corrupt one reads as none', async () => {
    const prefix = `t:${randomUUID()}:`;
    const store = createRedisBaselineStore(db.redis, { keyPrefix: prefix });
    expect(await store.load('c1')).toBeUndefined();
    await store.save('c1', fp('2025-03-04T09:00:00Z'));
    await store.save('c1', fp('2025-03-04T09:01:00Z', 2));
    expect(await store.load('c1')).toEqual(fp('2025-03-04T09:01:00Z', 2));
    expect(await store.load('c2')).toBeUndefined();
    await db.redis.set(`${prefix}baseline:c1`, '{not json');
    expect(await store.load('c1')).toBeUndefined();
  });

  it('does not store a fingerprint beyond its size bound and keeps the previous one', async () => {
    const { log, records } = captureLogs();
    const store = createRedisBaselineStore(db.redis, { keyPrefix: `t:${randomUUID()}:`, log });
    await store.save('c1', fp('2025-03-04T09:00:00Z'));
    const huge = fp('2025-03-04T09:05:00Z', Math.ceil(MAX_BASELINE_BYTES / 30));
    await store.save('c1', huge);
    expect((await store.load('c1'))!.at).toBe('2025-03-04T09:00:00Z');
    expect(records[0]).toMatchObject({
      level: 'warn',
      cluster: 'c1',
      bytes: expect.any(Number),
      max: 4194304,
      msg: 'baseline not stored: too large (the previous baseline stays)',
    });
  });

  it('records an observation only when it differs from the last one, capped, with a TTL, and lists them since a time', async () => {
    const prefix = `t:${randomUUID()}:`;
    const store = createRedisBaselineStore(db.redis, { keyPrefix: prefix });
    await store.recordChanges('c1', record('2025-03-04T10:00:00Z'));
    await store.recordChanges('c1', record('2025-03-04T10:01:00Z'));
    await store.recordChanges('c1', record('2025-03-04T10:02:00Z', 'cache'));
    expect((await store.listChanges('c1')).map((r) => r.at)).toEqual(['2025-03-04T10:00:00Z', '2025-03-04T10:02:00Z']);
    expect((await store.listChanges('c1', '2025-03-04T10:01:00Z')).map((r) => r.at)).toEqual(['2025-03-04T10:02:00Z']);
    expect(await db.redis.ttl(`${prefix}changes:c1`)).toBeGreaterThan(29 * 24 * 3600);
    for (let i = 0; i < MAX_CHANGE_RECORDS + 10; i++)
      await store.recordChanges('c1', record(`2025-03-05T00:00:${String(i % 60).padStart(2, '0')}Z`, `x${i}`));
    expect(await db.redis.llen(`${prefix}changes:c1`)).toBe(MAX_CHANGE_RECORDS);
  });
});
