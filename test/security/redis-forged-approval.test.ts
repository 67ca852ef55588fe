import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import type { RemediationProposal } from '../../src/diagnose/finding.js';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { hashPlan } from '../../src/approvals/hash-plan.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { useApprovalBot } from '../support/start-approval-bot.js';

/**
 * Attack: someone who can write to Redis (a leaked password, a compromised pod on the Redis network)
 * but does not hold K8S_HEALTH_PLAN_SECRET tries to make a plan run ("Redis alone
 * can never make a plan run"). Real Bolt receiver (signed requests for the legitimate clicks), real
 * Redis, the remediate worker on BullMQ, the fake Kubernetes and Slack APIs. Each attack writes Redis
 * exactly as such an attacker can (raw SET of the request, a job on the remediate queue) and must be
 * refused by the executor — status `aborted` "refused", an audited `refused` step, the refusal in the
 * thread — with NOTHING written to the cluster (the fake API server records every write).
 */
const names = [
  'app-status',
  'app-forged',
  'app-copied',
  'app-params',
  'victim',
  'app-cluster',
  'app-replay',
  'app-shown',
  'app-expired',
  'app-deadline',
  'app-removed',
  'app-legit',
];
const deployment = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'shop', uid: `uid-${name}` },
    spec: { replicas: 3 },
  }) as unknown as KubeObject;
const scale = (name: string, replicas = 0): RemediationProposal => ({
  action: 'deployment.scale',
  params: { namespace: 'shop', name, replicas },
  label: `Scale shop/${name} to ${replicas}`,
  risk: 'r',
});

let seq = 0;

const bot = useApprovalBot({ objects: names.map(deployment), secondCluster: 'prod-west' });

const realWrites = () => bot.kube.writes.filter((w) => !w.dryRun).length;
const key = (id: string) => `{k8s-health:approvals}:approval:${id}`;
/** The attacker's write: the stored request changed by a plain SET (TTL kept). */
async function tamper(id: string, change: (r: ApprovalRequest) => void): Promise<void> {
  // The request is stored right after its message is posted: wait for it.
  let raw: string | null = null;
  for (let i = 0; i < 500 && !(raw = await bot.redis.get(key(id))); i++) await new Promise((r) => setTimeout(r, 10));
  const r = JSON.parse(raw!) as ApprovalRequest;
  change(r);
  await bot.redis.set(key(id), JSON.stringify(r), 'KEEPTTL');
}
async function proposed(name: string): Promise<string> {
  const { requestId, ephemeral } = await bot.propose(scale(name));
  if (!requestId) throw new Error(`not proposed: ${ephemeral?.text}`);
  return requestId;
}
/** Approved by U0ANN and U0BEN while the worker is paused: the job waits in the queue. */
async function approvedButQueued(name: string): Promise<string> {
  await bot.pauseWorker();
  const id = await proposed(name);
  await bot.vote(id, 'U0ANN');
  expect(await bot.vote(id, 'U0BEN')).toContain('last one needed');
  return id;
}
/** The executor refused: aborted "refused…", audited `refused` (no user), said in the thread. */
async function expectRefused(id: string, why: RegExp, executedBefore = 0): Promise<ApprovalRequest> {
  const done = await bot.waitStatus(id, ['aborted', 'succeeded', 'failed']);
  expect(done.status).toBe('aborted');
  expect(done.result).toMatch(/^refused, nothing was changed: /);
  expect(done.result).toMatch(why);
  const trail = (await bot.audit.list({ limit: 1000 })).filter((e) => e.requestId === id);
  expect(trail[0]).toMatchObject({ event: 'refused', detail: done.result });
  expect(trail[0]!.user).toBeUndefined();
  expect(trail.filter((e) => e.event === 'executing')).toHaveLength(executedBefore);
  // Said in the request's thread (the result reply), whatever was posted for it before.
  await bot.slack.waitFor(
    `refusal of ${id} in the thread`,
    () =>
      bot.slack
        .callsTo('chat.postMessage')
        .find(
          (c) =>
            JSON.stringify(c.body.blocks ?? '').includes(`outcome of request ${id}`) &&
            String(c.body.text).includes('refused, nothing was changed'),
        ),
    30_000,
  );
  return done;
}

describe('an attacker with write access to Redis cannot make a plan run', () => {
  it('status=approved written on a pending request, then a job enqueued: refused, 0 valid approvals', async () => {
    const writes = realWrites();
    const id = await proposed('app-status');
    await tamper(id, (r) => (r.status = 'approved'));
    await bot.enqueue(id, `attack-${++seq}`);
    await expectRefused(id, /0 valid approval\(s\), 2 required/);
    expect(realWrites()).toBe(writes);
  });

  it('forged votes (two authorized user ids, no seal or a made-up one): refused', async () => {
    const writes = realWrites();
    const id = await proposed('app-forged');
    await tamper(id, (r) => {
      r.status = 'approved';
      r.approvals = [
        { user: 'U0ANN', at: r.createdAt },
        { user: 'U0BEN', at: r.createdAt, sig: 'ab'.repeat(32) },
      ];
    });
    await bot.enqueue(id, `attack-${++seq}`);
    await expectRefused(
      id,
      /the vote of U0ANN has no valid seal.*the vote of U0BEN has no valid seal.*0 valid approval\(s\)/,
    );
    expect(realWrites()).toBe(writes);
  });

  it('real sealed votes copied from another, legitimately approved request: refused', async () => {
    const legit = await bot.runApproved(scale('app-legit', 1));
    expect(legit.request.status).toBe('succeeded');
    const writes = realWrites();
    const id = await proposed('app-copied');
    await tamper(id, (r) => {
      r.status = 'approved';
      r.approvals = legit.request.approvals;
    });
    await bot.enqueue(id, `attack-${++seq}`);
    await expectRefused(id, /the vote of U0ANN has no valid seal/);
    expect(realWrites()).toBe(writes);
  });

  it('swapped params on an approved request (another Deployment, hash recomputed): refused by the plan signature', async () => {
    const writes = realWrites();
    const id = await approvedButQueued('app-params');
    await tamper(id, (r) => {
      r.plan.params = { ...r.plan.params, name: 'victim' };
      r.plan.label = 'Scale shop/victim to 0';
      r.hash = hashPlan(r.plan);
    });
    bot.resumeWorker();
    await expectRefused(id, /the plan signature does not verify/);
    expect(realWrites()).toBe(writes);
    expect(
      (bot.kube.find('Deployment', 'victim', 'shop') as unknown as { spec: { replicas: number } }).spec.replicas,
    ).toBe(3);
  });

  it('swapped cluster on an approved request (another remediation-enabled cluster): refused by the plan signature', async () => {
    const writes = realWrites();
    const id = await approvedButQueued('app-cluster');
    await tamper(id, (r) => {
      r.cluster = 'prod-west';
      r.plan.cluster = 'prod-west';
    });
    bot.resumeWorker();
    await expectRefused(id, /the plan signature does not verify/);
    expect(realWrites()).toBe(writes);
  });

  it("a replayed executed request (reset to approved, enqueued again): refused by the executed marker; with the marker deleted too and the recorded state back (its undo ran), by the worker's own memory", async () => {
    const { requestId: id, request } = await bot.runApproved(scale('app-replay'));
    expect(request.status).toBe('succeeded');
    const writes = realWrites();
    await tamper(id, (r) => (r.status = 'approved'));
    await bot.enqueue(id, `attack-${++seq}`);
    await expectRefused(id, /already executed once \(executed marker\)/, 1);
    // The Deployment is back at the 3 replicas the plan recorded (as its undo would leave it), so the
    // pinned preconditions would hold again; the attacker deletes the marker too. Signature and votes
    // are genuine and inside the execution deadline: only the worker's memory of what it ran is left.
    const live = structuredClone(bot.kube.find('Deployment', 'app-replay', 'shop')!) as unknown as {
      spec: { replicas: number };
    };
    live.spec.replicas = 3;
    bot.kube.emit('MODIFIED', live as unknown as KubeObject);
    await bot.redis.del(`{k8s-health:approvals}:approvals:executed:${id}`);
    await tamper(id, (r) => (r.status = 'approved'));
    await bot.enqueue(id, `attack-${++seq}`);
    for (let i = 0; i < 600 && (await bot.approvals.get(id))!.status !== 'aborted'; i++)
      await new Promise((r) => setTimeout(r, 50));
    const done = (await bot.approvals.get(id))!;
    expect(done.status).toBe('aborted');
    expect(done.result).toBe(
      'refused, nothing was changed: this request was already executed once by this remediation worker (its executed marker in Redis is gone: someone deleted it); propose it again if it is still needed',
    );
    expect(realWrites()).toBe(writes);
    expect(
      (bot.kube.find('Deployment', 'app-replay', 'shop') as unknown as { spec: { replicas: number } }).spec.replicas,
    ).toBe(3);
  });

  it('the text approvers are shown (label, API calls, risk, dry-run line) changed on an approved request, what runs untouched: refused by the plan signature', async () => {
    const writes = realWrites();
    const id = await approvedButQueued('app-shown');
    await tamper(id, (r) => {
      r.plan.label = 'Scale shop/app-shown to 3 (no change)';
      r.plan.apiCalls = ['GET /apis/apps/v1/namespaces/shop/deployments/app-shown (read only)'];
      r.plan.risk = 'none';
      r.dryRun = 'server-side dry run (dryRun=All) accepted: nothing changes';
    });
    expect(hashPlan((await bot.approvals.get(id))!.plan)).toBe((await bot.approvals.get(id))!.hash);
    bot.resumeWorker();
    await expectRefused(id, /the plan signature does not verify: .*the text approvers were shown/);
    expect(realWrites()).toBe(writes);
    expect(
      (bot.kube.find('Deployment', 'app-shown', 'shop') as unknown as { spec: { replicas: number } }).spec.replicas,
    ).toBe(3);
  });

  it('an expired request (one real approval) set to approved, its expiry pushed out and a vote added: refused', async () => {
    const writes = realWrites();
    bot.config.approvals.ttlMinutes = 0.1;
    let id: string;
    try {
      id = await proposed('app-expired');
    } finally {
      bot.config.approvals.ttlMinutes = 30;
    }
    expect(await bot.vote(id, 'U0ANN')).toContain('1 of 2');
    const { expiresAt } = (await bot.approvals.get(id))!;
    while (Date.now() <= Date.parse(expiresAt)) await new Promise((r) => setTimeout(r, 100));
    expect(await bot.vote(id, 'U0BEN')).toContain('expired');
    await tamper(id, (r) => {
      r.status = 'approved';
      r.expiresAt = new Date(Date.now() + 3600_000).toISOString();
      r.approvals.push({ ...r.approvals[0]!, user: 'U0BEN' });
    });
    await bot.enqueue(id, `attack-${++seq}`);
    await expectRefused(id, /the plan signature does not verify.*the vote of U0BEN has no valid seal/);
    expect(realWrites()).toBe(writes);
  });

  it('an approved request whose job ran after the execution deadline (a queued job, or a replay): refused', async () => {
    const writes = realWrites();
    bot.config.approvals.executionDeadlineMinutes = 0.02; // 1.2 s
    try {
      const id = await approvedButQueued('app-deadline');
      await new Promise((r) => setTimeout(r, 1500));
      bot.resumeWorker();
      await expectRefused(id, /the execution deadline passed: approved at .*approvals\.executionDeadlineMinutes 0\.02/);
    } finally {
      bot.config.approvals.executionDeadlineMinutes = 10;
    }
    expect(realWrites()).toBe(writes);
  });

  it('an approver removed from the config between the vote and the execution no longer counts: refused', async () => {
    const writes = realWrites();
    const cluster = bot.config.clusters[0]!;
    const before = cluster.approvers.users;
    try {
      const id = await approvedButQueued('app-removed');
      cluster.approvers.users = ['U0ANN', 'U0PAT'];
      bot.resumeWorker();
      await expectRefused(
        id,
        /U0BEN is not an approver of cluster prod-east in the current config; 1 valid approval\(s\), 2 required/,
      );
    } finally {
      cluster.approvers.users = before;
    }
    expect(realWrites()).toBe(writes);
  });

  it('the secret itself never reaches Redis, the logs or Slack (after every flow above)', async () => {
    const seen: string[] = [];
    for (const key of await bot.redis.keys('*')) {
      const type = await bot.redis.type(key);
      if (type === 'string') seen.push((await bot.redis.get(key)) ?? '');
      else if (type === 'hash') seen.push(JSON.stringify(await bot.redis.hgetall(key)));
      else if (type === 'stream') seen.push(JSON.stringify(await bot.redis.xrange(key, '-', '+')));
      else if (type === 'list') seen.push(JSON.stringify(await bot.redis.lrange(key, 0, -1)));
      else if (type === 'set') seen.push(JSON.stringify(await bot.redis.smembers(key)));
      else if (type === 'zset') seen.push(JSON.stringify(await bot.redis.zrange(key, 0, -1)));
    }
    expect(seen.length).toBeGreaterThan(20);
    const everything = [
      ...seen,
      ...bot.logs,
      JSON.stringify(bot.slack.callsTo('chat.postMessage')),
      JSON.stringify(bot.slack.callsTo('chat.update')),
      JSON.stringify(bot.slack.responses),
    ].join('\n');
    expect(everything).toContain('refused, nothing was changed');
    expect(everything).not.toContain(TEST_PLAN_SECRET);
    expect(everything).not.toContain(Buffer.from(TEST_PLAN_SECRET).toString('hex'));
    expect(everything).not.toContain(Buffer.from(TEST_PLAN_SECRET).toString('base64'));
  });
});
