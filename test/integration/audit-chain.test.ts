import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { createAuditLog, type AuditEvent } from '../../src/store/audit-log.js';
import { verifyAuditLog } from '../../src/store/verify-audit-log.js';
import { TEST_PLAN_SECRET, testSigner } from '../support/plan-secret.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * The audit stream is a numbered hash chain with a signed head, appended in one Lua step: concurrent
 * appends from many connections never fork it, and `k8s-health audit verify` reports it intact.
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

const event = (i: number): AuditEvent => ({
  at: new Date(Date.UTC(2025, 2, 1, 10, 0, i)).toISOString(),
  cluster: 'prod',
  requestId: `r_${i}`,
  event: 'approved',
  action: 'deployment.scale',
  user: `U${i}`,
});

describe('audit hash chain', () => {
  it('a stream of the older format (unsigned head) fails verify until the next append archives it to audit:v1 and starts a signed chain', async () => {
    // Unchained records, then the older chain (prev/hash, head = a bare hash).
    for (let i = 0; i < 3; i++)
      await conns[0]!.xadd(`{k8s-health:audit}:audit`, '*', 'event', JSON.stringify(event(i)));
    await conns[0]!.set(`{k8s-health:audit}:audit:head`, 'a'.repeat(64));
    const before = await verifyAuditLog(conns[0]!, { keyPrefix: REDIS_PREFIX });
    expect(before).toMatchObject({
      intact: false,
      broken: { id: '(head)', reason: expect.stringContaining('the head is not a signed chain head') },
    });
    await createAuditLog(conns[0]!, { keyPrefix: REDIS_PREFIX, signer: testSigner() }).append(event(99));
    expect(await conns[0]!.xlen(`{k8s-health:audit}:audit:v1`)).toBe(3);
    expect(await verifyAuditLog(conns[0]!, { keyPrefix: REDIS_PREFIX, signer: testSigner() })).toMatchObject({
      intact: true,
      records: 1,
      firstSeq: 1,
      lastSeq: 1,
    });
    await conns[0]!.del(`{k8s-health:audit}:audit`, `{k8s-health:audit}:audit:head`, `{k8s-health:audit}:audit:v1`);
  });

  it('the cap trims exactly: the oldest records go, verify says so and still holds', async () => {
    const log = createAuditLog(conns[0]!, { keyPrefix: 'capped:', signer: testSigner(), cap: 5 });
    for (let i = 0; i < 8; i++) await log.append(event(i));
    expect(await verifyAuditLog(conns[0]!, { keyPrefix: 'capped:', signer: testSigner() })).toMatchObject({
      intact: true,
      records: 5,
      trimmedStart: true,
      firstSeq: 4,
      lastSeq: 8,
    });
    // One more removed by hand is not the cap's doing.
    const [[oldest]] = (await conns[0]!.xrange('{capped:audit}:audit', '-', '+', 'COUNT', 1)) as [string, string[]][];
    await conns[0]!.xdel('{capped:audit}:audit', oldest!);
    expect(await verifyAuditLog(conns[0]!, { keyPrefix: 'capped:', signer: testSigner() })).toMatchObject({
      intact: false,
      broken: { reason: expect.stringContaining('records were removed from the start') },
    });
  });

  it('200 appends from 5 connections at once: one unbroken chain, every event listed once', async () => {
    const logs = conns.map((c) => createAuditLog(c, { keyPrefix: REDIS_PREFIX, signer: testSigner() }));
    await Promise.all(Array.from({ length: 200 }, (_, i) => logs[i % logs.length]!.append(event(100 + i))));
    const r = await verifyAuditLog(conns[0]!, { keyPrefix: REDIS_PREFIX, signer: testSigner() });
    expect(r).toMatchObject({
      intact: true,
      records: 200,
      trimmedStart: false,
      macsChecked: true,
      firstSeq: 1,
      lastSeq: 200,
    });
    expect(r.head).toBe(JSON.parse((await conns[0]!.get(`{k8s-health:audit}:audit:head`))!).hash);
    const listed = await logs[0]!.list({ limit: 1000 });
    expect(listed).toHaveLength(200);
    expect(new Set(listed.map((e) => e.requestId)).size).toBe(200);
  });

  it('`k8s-health audit verify` says "intact, N records" (exit 0), MACs checked only with the secret; --json', async () => {
    const env = { REDIS_URL: redisServer.url };
    const plain = await runCliInProcess(['audit', 'verify'], env);
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(plain.stdout).toMatch(
      /^intact, 200 records \(head #200 [0-9a-f]{12}\); MACs not checked: K8S_HEALTH_PLAN_SECRET is not set; not compared with the log \(--log FILE\)\n$/,
    );
    const keyed = await runCliInProcess(['audit', 'verify', '--json'], {
      ...env,
      K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET,
    });
    expect(keyed.code).toBe(0);
    expect(JSON.parse(keyed.stdout)).toMatchObject({ intact: true, records: 200, macsChecked: true });
    const short = await runCliInProcess(['audit', 'verify'], { ...env, K8S_HEALTH_PLAN_SECRET: 'short' });
    expect(short.code).toBe(2);
    expect(short.stderr).toBe(
      'k8s-health audit verify: K8S_HEALTH_PLAN_SECRET is shorter than 32 bytes: approval-gated fixes are disabled until it holds a random secret of at least 32 bytes (e.g. `openssl rand -hex 32`)\n',
    );
    // The plain listing still works on the chained stream.
    const list = await runCliInProcess(['audit', '--limit', '2'], env);
    expect(list.code).toBe(0);
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});
