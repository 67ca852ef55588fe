import { describe, expect, it } from '@jest/globals';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { ALL_QUEUES, REMEDIATE_QUEUE, SCAN_QUEUE, queuePrefix } from '../../../src/jobs/queue-names.js';
import { createApprovalStore } from '../../../src/store/approval-store.js';
import { createAuditLog } from '../../../src/store/audit-log.js';
import { createClusterLeaseStore } from '../../../src/store/cluster-lease-store.js';
import { migrateKeyLayout } from '../../../src/store/migrate-key-layout.js';
import { BULLMQ_PREFIX, REDIS_PREFIX, taggedKey } from '../../../src/store/redis-prefix.js';
import { verifyAuditLog } from '../../../src/store/verify-audit-log.js';
import { testSigner } from '../../support/plan-secret.js';
import { useRedis } from '../../support/use-redis.js';

/**
 * A Redis written by the version before hash tags (keys `k8s-health:approval:<id>`,
 * `k8s-health:audit`, `k8s-health:lease:<cluster>`, BullMQ under the prefix `k8s-health`): at start-up
 * every record moves to its tagged name and reads back through the stores — a pending approval with
 * its index entry, the signed audit chain (still verifying), a lease with its TTL, a delayed scan with
 * its job scheduler, a waiting remediation a worker then runs — while keys that keep their name
 * (reports and alert thread maps) stay. Three processes starting at once migrate once; a second start finds nothing to
 * do.
 */
describe('key layout migration at start-up', () => {
  const db = useRedis();
  const P = REDIS_PREFIX;

  it('moves every record of the old layout to its tagged name, once, with nothing lost', async () => {
    const redis = db.redis;
    // The previous layout, written under the previous code's names.
    const approval = {
      id: 'r_pending1',
      status: 'pending',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      votes: [{ user: 'U1' }],
    };
    await redis.set(`${P}approval:${approval.id}`, JSON.stringify(approval), 'EX', 86_400);
    await redis.zadd(`${P}approvals:pending`, Date.parse(approval.expiresAt), approval.id);
    await redis.set(`${P}approvals:executed:r_done`, '2025-03-01T00:00:00.000Z', 'EX', 86_400);
    // The audit chain as the previous code wrote it: same records, stream and head under the old names.
    const audit = createAuditLog(redis, { keyPrefix: P, signer: testSigner() });
    for (let i = 0; i < 3; i++)
      await audit.append({
        at: new Date(Date.UTC(2025, 2, 1, 10, 0, i)).toISOString(),
        cluster: 'prod',
        requestId: `r_${i}`,
        event: 'approved',
        action: 'deployment.scale',
        user: `U${i}`,
      });
    await redis.rename(taggedKey(P, 'audit', 'audit'), `${P}audit`);
    await redis.rename(taggedKey(P, 'audit', 'audit:head'), `${P}audit:head`);
    await redis.set(`${P}lease:prod`, 'worker-a', 'PX', 120_000);
    await redis.zadd(`${P}lease-workers`, Date.now() + 60_000, 'worker-a');
    const oldBull = redis.duplicate({ maxRetriesPerRequest: null });
    const oldScan = new Queue(SCAN_QUEUE, { connection: oldBull, prefix: BULLMQ_PREFIX });
    await oldScan.upsertJobScheduler('scan:prod', { every: 3_600_000 }, { name: 'scan', data: { cluster: 'prod' } });
    await oldScan.add('scan', { cluster: 'lab' }, { delay: 3_600_000, jobId: 'delayed-lab' });
    const oldRemediate = new Queue(REMEDIATE_QUEUE, { connection: oldBull, prefix: BULLMQ_PREFIX });
    await oldRemediate.add('remediate', { requestId: approval.id }, { jobId: approval.id });
    await Promise.all([oldScan.close(), oldRemediate.close()]);
    oldBull.disconnect();
    // Records read and written one key at a time keep their names (store/redis-prefix.ts).
    await redis.set(`${P}report:prod`, '{"report":{"cluster":"prod"}}');
    await redis.set(`${P}alert-thread:prod:node.not-ready`, '{"ts":"1.2"}');
    const before = (await redis.keys('*')).length;

    // Three processes start at once: one migrates under the lock, the others wait for its marker.
    const conns = [0, 1, 2].map(() => new Redis(db.server.url));
    try {
      const results = await Promise.all(conns.map((c) => migrateKeyLayout(c, { keyPrefix: P, queues: ALL_QUEUES })));
      expect(results.filter((r) => r.ran)).toHaveLength(1);
      const moved = results.reduce((n, r) => n + r.moved, 0);
      expect(moved).toBeGreaterThan(10);
      expect(results.flatMap((r) => r.kept)).toEqual([]);
    } finally {
      for (const c of conns) c.disconnect();
    }
    // Nothing lost, nothing left under an old name (the marker is the one key added).
    expect((await redis.keys('*')).length).toBe(before + 1);
    expect(await redis.keys(`${P}approval*`)).toEqual([]);
    expect(await redis.keys(`${P}audit*`)).toEqual([]);
    expect(await redis.keys(`${P}lease*`)).toEqual([]);
    expect(await redis.keys(`${BULLMQ_PREFIX}:k8s-health-*`)).toEqual([]);

    const approvals = createApprovalStore(redis, { keyPrefix: P });
    expect(await approvals.get(approval.id)).toEqual(approval);
    expect(await approvals.pendingBefore(Date.parse(approval.expiresAt), 10)).toEqual([approval.id]);
    expect(await approvals.markExecuted('r_done')).toBe(false);
    expect(await redis.ttl(taggedKey(P, 'approvals', `approval:${approval.id}`))).toBeGreaterThan(86_000);
    expect(await verifyAuditLog(redis, { keyPrefix: P, signer: testSigner() })).toMatchObject({
      intact: true,
      records: 3,
    });
    await audit.append({
      at: new Date(Date.UTC(2025, 2, 1, 10, 0, 9)).toISOString(),
      cluster: 'prod',
      requestId: 'r_9',
      event: 'approved',
      action: 'deployment.scale',
      user: 'U9',
    });
    expect(await verifyAuditLog(redis, { keyPrefix: P, signer: testSigner() })).toMatchObject({
      intact: true,
      records: 4,
    });
    const leases = createClusterLeaseStore(redis, { keyPrefix: P });
    expect(await leases.owners(['prod'])).toEqual(['worker-a']);
    expect(await redis.pttl(taggedKey(P, 'lease', 'lease:prod'))).toBeGreaterThan(100_000);
    expect(await redis.zscore(taggedKey(P, 'lease', 'lease-workers'), 'worker-a')).not.toBeNull();
    expect(await redis.get(`${P}report:prod`)).toBe('{"report":{"cluster":"prod"}}');
    expect(await redis.get(`${P}alert-thread:prod:node.not-ready`)).toBe('{"ts":"1.2"}');

    const bull = redis.duplicate({ maxRetriesPerRequest: null });
    const scan = new Queue(SCAN_QUEUE, { connection: bull, prefix: queuePrefix(BULLMQ_PREFIX, SCAN_QUEUE) });
    const remediate = new Queue(REMEDIATE_QUEUE, {
      connection: bull,
      prefix: queuePrefix(BULLMQ_PREFIX, REMEDIATE_QUEUE),
    });
    const ran: unknown[] = [];
    const workerConnection = redis.duplicate({ maxRetriesPerRequest: null });
    const worker = new Worker(REMEDIATE_QUEUE, async (job) => void ran.push(job.data), {
      connection: workerConnection,
      prefix: queuePrefix(BULLMQ_PREFIX, REMEDIATE_QUEUE),
    });
    const completed = new Promise<void>((resolve) => worker.on('completed', () => resolve()));
    try {
      expect((await scan.getJobSchedulers()).map((s) => s.key)).toEqual(['scan:prod']);
      expect((await scan.getDelayed()).map((j) => j.id).sort()).toEqual(expect.arrayContaining(['delayed-lab']));
      await completed;
      expect(ran).toEqual([{ requestId: approval.id }]);
      expect(await remediate.getCompletedCount()).toBe(1);
    } finally {
      await worker.close();
      await Promise.all([scan.close(), remediate.close()]);
      bull.disconnect();
      workerConnection.disconnect();
    }

    // A second start: the marker says done; without it, nothing is left to move.
    expect(await migrateKeyLayout(redis, { keyPrefix: P, queues: ALL_QUEUES })).toEqual({
      moved: 0,
      kept: [],
      ran: false,
    });
    await redis.del(`${P}key-layout`);
    expect(await migrateKeyLayout(redis, { keyPrefix: P, queues: ALL_QUEUES })).toEqual({
      moved: 0,
      kept: [],
      ran: true,
    });
  });

  it('never overwrites a record already under its new name: the old one is left and named', async () => {
    const P2 = 'twice:';
    await db.redis.set(`${P2}approval:r_both`, 'old');
    await db.redis.set(taggedKey(P2, 'approvals', 'approval:r_both'), 'new');
    const r = await migrateKeyLayout(db.redis, { keyPrefix: P2, queues: [] });
    expect(r).toEqual({ moved: 0, kept: [`${P2}approval:r_both`], ran: true });
    expect(await db.redis.get(taggedKey(P2, 'approvals', 'approval:r_both'))).toBe('new');
    expect(await db.redis.get(`${P2}approval:r_both`)).toBe('old');
  });
});
