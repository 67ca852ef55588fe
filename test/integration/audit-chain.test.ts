import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { createAuditLog, type AuditEvent } from '../../src/store/audit-log.js';
import { verifyAuditLog } from '../../src/store/verify-audit-log.js';
import { TEST_PLAN_SECRET, testSigner } from '../support/plan-secret.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * The audit stream is a hash chain appended in one Lua step: concurrent appends
 * from many connections never fork it, and `k8s-health audit verify` reports it intact.
 */
let redisServer: RedisServer;
const conns: Redis[] = [];

beforeAll(async () => {
  redisServer = await startRedis();
  for (let i = 0; i < 5; i++) conns.push(new Redis(redisServer.url));
});
afterAll(async () => {
  for (const c of conns) c.disconnect();
  await redisServer?.stop();
});

const event = (i: number): AuditEvent => ({ at: new Date(Date.UTC(2025, 2, 1, 10, 0, i)).toISOString(), cluster: 'prod', requestId: `r_${i}`, event: 'approved', action: 'deployment.scale', user: `U${i}` });

describe('audit hash chain', () => {
  it('records written before the chain existed stay readable and are reported, not checked', async () => {
    // A stream written before the audit trail was a hash chain: plain XADDs with one `event` field, no head key.
    for (let i = 0; i < 3; i++) await conns[0]!.xadd(`${REDIS_PREFIX}audit`, '*', 'event', JSON.stringify(event(i)));
    const r = await verifyAuditLog(conns[0]!, { keyPrefix: REDIS_PREFIX });
    expect(r).toMatchObject({ intact: true, records: 0, unchained: 3 });
  });

  it('200 appends from 5 connections at once: one unbroken chain, every event listed once', async () => {
    const logs = conns.map((c) => createAuditLog(c, { keyPrefix: REDIS_PREFIX, signer: testSigner() }));
    await Promise.all(Array.from({ length: 200 }, (_, i) => logs[i % logs.length]!.append(event(100 + i))));
    const r = await verifyAuditLog(conns[0]!, { keyPrefix: REDIS_PREFIX, signer: testSigner() });
    expect(r).toMatchObject({ intact: true, records: 200, unchained: 3, trimmedStart: false, macsChecked: true });
    expect(r.head).toBe(await conns[0]!.get(`${REDIS_PREFIX}audit:head`));
    const listed = await logs[0]!.list({ limit: 1000 });
    expect(listed).toHaveLength(203);
    expect(new Set(listed.map((e) => e.requestId)).size).toBe(203);
  });

  it('`k8s-health audit verify` says "intact, N records" (exit 0), MACs checked only with the secret; --json', async () => {
    const env = { REDIS_URL: redisServer.url };
    const plain = await runCliInProcess(['audit', 'verify'], env);
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(plain.stdout).toMatch(/^intact, 200 records \(head [0-9a-f]{12}\); MACs not checked: K8S_HEALTH_PLAN_SECRET is not set; 3 older unchained record\(s\) not checked\n$/);
    const keyed = await runCliInProcess(['audit', 'verify', '--json'], { ...env, K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET });
    expect(keyed.code).toBe(0);
    expect(JSON.parse(keyed.stdout)).toMatchObject({ intact: true, records: 200, macsChecked: true });
    const short = await runCliInProcess(['audit', 'verify'], { ...env, K8S_HEALTH_PLAN_SECRET: 'short' });
    expect(short.code).toBe(2);
    expect(short.stderr).toBe('k8s-health audit verify: K8S_HEALTH_PLAN_SECRET is shorter than 32 bytes: approval-gated fixes are disabled until it holds a random secret of at least 32 bytes (e.g. `openssl rand -hex 32`)\n');
    // The plain listing still works on the chained stream.
    const list = await runCliInProcess(['audit', '--limit', '2'], env);
    expect(list.code).toBe(0);
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});
