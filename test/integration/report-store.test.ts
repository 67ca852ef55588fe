import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Report } from '../../src/report/report.js';
import { createReportStore } from '../../src/store/report-store.js';
import { useRedis } from '../support/use-redis.js';

const report = (cluster: string, minute: number): Report => {
  const at = new Date(Date.UTC(2026, 10, 24, 10, minute)).toISOString();
  return { cluster, generatedAt: at, collectedAt: at, status: 'healthy', sections: [], findings: [], partial: [] };
};

describe('report store (saving never overwrites a newer report)', () => {
  const db = useRedis();

  it('refuses an older report and returns the newer one it kept', async () => {
    const store = createReportStore(db.redis, { keyPrefix: `t:${randomUUID()}:` });
    expect((await store.save(report('c1', 5))).saved).toBe(true);
    const late = await store.save(report('c1', 3));
    expect(late.saved).toBe(false);
    expect(late.report.generatedAt).toBe(report('c1', 5).generatedAt);
    expect((await store.latest('c1'))?.report.generatedAt).toBe(report('c1', 5).generatedAt);
    // the same time again and a later one are stored
    expect((await store.save(report('c1', 5))).saved).toBe(true);
    expect((await store.save(report('c1', 9))).saved).toBe(true);
    expect((await store.latest('c1'))?.report.generatedAt).toBe(report('c1', 9).generatedAt);
  });

  it('keeps the latest of 40 saves racing from 4 connections in shuffled order', async () => {
    const prefix = `t:${randomUUID()}:`;
    const conns = [0, 1, 2, 3].map(() => new Redis(db.server.url));
    try {
      const stores = conns.map((c) => createReportStore(c, { keyPrefix: prefix }));
      const minutes = [...Array(40).keys()].sort((a, b) => ((a * 7919) % 41) - ((b * 7919) % 41));
      const results = await Promise.all(minutes.map((m, i) => stores[i % 4]!.save(report('c2', m))));
      expect((await stores[0]!.latest('c2'))?.report.generatedAt).toBe(report('c2', 39).generatedAt);
      expect(results.find((r, i) => minutes[i] === 39)?.saved).toBe(true);
    } finally {
      for (const c of conns) c.disconnect();
    }
  });

  it('replaces an unreadable entry', async () => {
    const prefix = `t:${randomUUID()}:`;
    await db.redis.set(`${prefix}report:c3`, '{not json');
    const store = createReportStore(db.redis, { keyPrefix: prefix });
    expect((await store.save(report('c3', 1))).saved).toBe(true);
    expect((await store.latest('c3'))?.report.cluster).toBe('c3');
  });
});
