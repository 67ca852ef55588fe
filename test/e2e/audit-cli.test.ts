import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { freePort } from '../support/free-port.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { startApprovalBot } from '../support/start-approval-bot.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/** Runs the built CLI exactly as a user does (`npm test` builds dist/ before jest runs). */
function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['bin/k8s-health.js', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 60000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-web' },
  spec: { replicas: 3 },
} as unknown as KubeObject;
const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

let redis: RedisServer;
let executed = '';
let rejected = '';

beforeAll(async () => {
  if (!existsSync('dist/cli/run-cli.js'))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  redis = await startRedis();
  // A real flow on prod-east (proposed, two approvals, executed), then one on lab (rejected), same Redis.
  const prod = await startApprovalBot({ objects: [deployment], redisServer: redis });
  try {
    const run = await prod.runApproved({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'web', replicas: 1 },
      label: 'Scale shop/web to 1',
      risk: 'r',
    });
    if (run.request.status !== 'succeeded')
      throw new Error(`the prod-east flow did not succeed: ${run.request.result}`);
    executed = run.requestId;
  } finally {
    await prod.stop();
  }
  const lab = await startApprovalBot({ objects: [deployment], redisServer: redis, cluster: 'lab' });
  try {
    const { requestId } = await lab.propose({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'web', replicas: 0 },
      label: 'Scale shop/web to 0',
      risk: 'r',
    });
    await lab.vote(requestId!, 'U0ANN', 'reject');
    rejected = requestId!;
  } finally {
    await lab.stop();
  }
}, 90_000);

afterAll(async () => {
  await redis?.stop();
});

describe('k8s-health audit (spawned CLI)', () => {
  it('prints every step of the real flows, newest first: when, cluster, request, what, who, result', () => {
    const r = cli(['audit'], { REDIS_URL: redis.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    for (const l of lines) expect(l).toMatch(new RegExp(`^${ISO}  (prod-east|lab)  r_\\S+  \\S+ +deployment\\.scale`));
    const prod = lines.filter((l) => l.includes(executed)).reverse();
    expect(prod.map((l) => l.split(/\s+/)[3])).toEqual(['proposed', 'approved', 'approved', 'executing', 'succeeded']);
    expect(prod[0]).toContain('by U0PAT  — Scale shop/web to 1 (was 3); server-side dry run (dryRun=All) accepted');
    expect(prod[1]).toContain('by U0ANN  — 1 of 2 approvals');
    expect(prod[2]).toContain('by U0BEN  — 2 of 2 approvals (decisive)');
    expect(prod[4]).toContain('— done and verified: Deployment shop/web scaled from 3 to 1');
    // Newest first: the lab rejection happened last.
    expect(lines[0]).toMatch(new RegExp(`  lab  ${rejected}  rejected +deployment\\.scale  by U0ANN`));
  });

  it('--cluster keeps only that cluster; --limit caps the lines; --json prints the stored events', () => {
    const lab = cli(['audit', '--cluster', 'lab'], { REDIS_URL: redis.url });
    expect(lab.code).toBe(0);
    expect(
      lab.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s+/).slice(1, 4)),
    ).toEqual([
      ['lab', rejected, 'rejected'],
      ['lab', rejected, 'proposed'],
    ]);
    const limited = cli(['audit', '--cluster', 'prod-east', '--limit', '2'], { REDIS_URL: redis.url });
    expect(
      limited.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s+/)[3]),
    ).toEqual(['succeeded', 'executing']);
    const json = cli(['audit', '--cluster', 'prod-east', '--limit', '1', '--json'], { REDIS_URL: redis.url });
    expect(JSON.parse(json.stdout)).toMatchObject({
      cluster: 'prod-east',
      requestId: executed,
      event: 'succeeded',
      action: 'deployment.scale',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const none = cli(['audit', '--cluster', 'nowhere'], { REDIS_URL: redis.url });
    expect(none).toEqual({ code: 0, stdout: '', stderr: 'no audit events for cluster nowhere\n' });
  });

  it('`audit verify` walks the hash chain of those real flows: intact, 7 records; MACs checked with K8S_HEALTH_PLAN_SECRET', () => {
    const hashes = cli(['audit', 'verify'], { REDIS_URL: redis.url });
    expect(hashes.stderr).toBe('');
    expect(hashes.code).toBe(0);
    expect(hashes.stdout).toMatch(
      /^intact, 7 records \(head #7 [0-9a-f]{12}\); MACs not checked: K8S_HEALTH_PLAN_SECRET is not set; not compared with the log \(--log FILE\)\n$/,
    );
    const keyed = cli(['audit', 'verify', '--json'], {
      REDIS_URL: redis.url,
      K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET,
    });
    expect(keyed.code).toBe(0);
    expect(JSON.parse(keyed.stdout)).toMatchObject({
      intact: true,
      records: 7,
      firstSeq: 1,
      lastSeq: 7,
      macsChecked: true,
      head: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const wrong = cli(['audit', 'verify'], {
      REDIS_URL: redis.url,
      K8S_HEALTH_PLAN_SECRET: `${TEST_PLAN_SECRET}-rotated`,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(
      /^broken at record \S+ \(#1 oldest first, after 0 intact\): its MAC does not verify with K8S_HEALTH_PLAN_SECRET/,
    );
  });

  it('an unreachable Redis: exit 2 with one line naming REDIS_URL', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const r = cli(['audit'], { REDIS_URL: url });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`k8s-health audit: cannot read the audit stream from Redis (${url})`);
    const v = cli(['audit', 'verify'], { REDIS_URL: url });
    expect(v.code).toBe(2);
    expect(v.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(v.stderr).toContain(`k8s-health audit verify: cannot read the audit stream from Redis (${url})`);
  });
});
