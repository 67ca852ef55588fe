import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { configSchema } from '../../src/config/config-schema.js';
import { startJobs, type WorkerSet } from '../../src/compose/compose-jobs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import {
  createReplayCluster,
  randomPrefix,
  REPLAY_DIR,
  type ReplayCluster,
} from '../integration/jobs/replay-cluster.js';
import { deployment, scaleProposal, startApprovalHarness, type ApprovalHarness } from './approval-harness.js';
import { recordFigure, scaled } from './figures.js';

/**
 * Redis killed with SIGKILL and restarted (AOF, appendfsync always) while approvals are pending and
 * an alert thread is open. Everything the bot keeps for them is byte-identical afterwards,
 * the same processes resume by themselves (no restart of the bot), a pending approval's next vote
 * executes it exactly once, and the open incident's next change is a reply in the same thread.
 */
let redisServer: RedisServer;
let h: ApprovalHarness;
let slack: FakeSlackApi;
let replay: ReplayCluster;
let workers: WorkerSet | undefined;
let reader: Redis;
const prefix = randomPrefix();
const N = scaled(10);

beforeAll(async () => {
  redisServer = await startRedis({ appendonly: true });
  reader = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  reader.on('error', () => undefined);
  // fsync every write: "nothing acknowledged is lost" (with the default everysec, a kill -9 may lose ≤ 1 s).
  await reader.config('SET', 'appendfsync', 'always');
  h = await startApprovalHarness(
    redisServer,
    Array.from({ length: N }, (_, i) => deployment(`app-p${i}`)),
  );
  slack = await startFakeSlackApi();
  replay = createReplayCluster();
  replay.show(path.join(REPLAY_DIR, 't00'));
  workers = await startJobs({
    config: configSchema.parse({
      clusters: [{ name: 'tkc-loop', dump: replay.link, slack: { alertChannel: 'C0ALERTS' } }],
      scan: { intervalSeconds: 3600, resolveAfterScans: 3 },
      thresholds: { loopReplacements: 2 },
    }),
    redisUrl: redisServer.url,
    prefix,
    slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
    channelIntervalMs: 100,
  });
}, 60_000);

afterAll(async () => {
  await workers?.close();
  await h?.close();
  await slack?.close();
  reader?.disconnect();
  await redisServer?.stop();
  replay?.cleanup();
});

/** Every key under a pattern with its full value (strings and hashes), for a before/after comparison. */
async function snapshotKeys(pattern: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of (await reader.keys(pattern)).sort()) {
    const type = await reader.type(key);
    out[key] = type === 'hash' ? await reader.hgetall(key) : type === 'string' ? await reader.get(key) : type;
  }
  return out;
}

async function retry<T>(what: string, fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const alertPosts = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS');

describe('Redis kill -9 and restart with pending approvals and an open alert thread', () => {
  it(`${N} pending approvals and 1 open alert thread are intact; the same processes resume; nothing runs twice`, async () => {
    // Pending approvals: even ones have their first approval, odd ones none yet.
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      ids.push(await h.propose(scaleProposal(`app-p${i}`)));
      if (i % 2 === 0) expect(await h.click(ids[i]!, 'U0ANN')).toContain('1 of 2');
    }
    // An open incident: the S3 recreation loop played to its second replacement opens a thread.
    for (const t of ['t00', 't12', 't24']) {
      replay.show(path.join(REPLAY_DIR, t));
      await workers!.scan('tkc-loop');
    }
    await slack.waitFor('the alert parent', () => alertPosts()[0], 30_000);
    await retry('the thread stored, notify queue drained', async () => {
      const counts = await workers!.notifyQueue.getJobCounts('active', 'wait', 'delayed');
      const threads = await reader.keys(`${prefix}:alert-thread:*`);
      if (threads.length !== 1 || counts.active + counts.wait + counts.delayed > 0) throw new Error('not yet');
    });
    const parentTs = [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/'))!.split('/')[1]!;
    const approvalsBefore = await snapshotKeys('{k8s-health:approvals}:approval:*');
    const alertsBefore = await snapshotKeys(`${prefix}:alert-*`);
    expect(Object.keys(approvalsBefore)).toHaveLength(N);
    expect(Object.keys(alertsBefore).length).toBeGreaterThanOrEqual(2); // the cluster's alert state + the thread

    await redisServer.kill(true);
    await redisServer.restart();

    const approvalsAfter = await retry('approvals readable', () => snapshotKeys('{k8s-health:approvals}:approval:*'));
    const alertsAfter = await snapshotKeys(`${prefix}:alert-*`);
    const lostApprovals = Object.keys(approvalsBefore).filter(
      (k) => !isDeepStrictEqual(approvalsAfter[k], approvalsBefore[k]),
    ).length;
    // Deep equality, not JSON text: a hash's field order may differ after the AOF is replayed.
    const lostAlerts = Object.keys(alertsBefore).filter(
      (k) => !isDeepStrictEqual(alertsAfter[k], alertsBefore[k]),
    ).length;
    expect(approvalsAfter).toEqual(approvalsBefore);
    expect(alertsAfter).toEqual(alertsBefore);
    for (const id of ids) expect((await h.get(id))!.status).toBe('pending');

    // The same bot (Bolt, approval store, remediate worker) carries on: the next vote on each request.
    for (let i = 0; i < N; i++) {
      const reply = await retry('a vote after the restart', () => h.click(ids[i]!, i % 2 === 0 ? 'U0BEN' : 'U0ANN'));
      expect(reply).toMatch(i % 2 === 0 ? /last one needed/ : /1 of 2/);
    }
    let twice = 0;
    for (let i = 0; i < N; i += 2) {
      expect((await h.waitStatus(ids[i]!, ['succeeded', 'failed', 'aborted', 'interrupted'])).status).toBe('succeeded');
    }
    for (let i = 0; i < N; i++) twice += Math.max(0, h.realWrites(`app-p${i}`) - (i % 2 === 0 ? 1 : 0));
    for (let i = 0; i < N; i++) expect(h.realWrites(`app-p${i}`)).toBe(i % 2 === 0 ? 1 : 0);
    for (let i = 1; i < N; i += 2) expect((await h.get(ids[i]!))!.approvals.map((a) => a.user)).toEqual(['U0ANN']);

    // The same workers carry on: the incident's next change is a reply in the same thread, no second parent.
    replay.show(path.join(REPLAY_DIR, 't36'));
    await retry('a scan after the restart', () => workers!.scan('tkc-loop'));
    const reply = await slack.waitFor(
      'a reply in the open thread',
      () => alertPosts().find((c) => c.body.thread_ts === parentTs),
      30_000,
    );
    expect(JSON.stringify(reply.body.blocks)).toContain('Recreation counted again');
    const parents = alertPosts().filter((c) => !c.body.thread_ts).length;
    expect(parents).toBe(1);

    recordFigure({
      suite: 'store-faults',
      case: 'Redis kill -9: pending approvals intact',
      tried: N,
      bad: lostApprovals + twice,
      note: `${N / 2} then executed once each`,
    });
    recordFigure({
      suite: 'store-faults',
      case: 'Redis kill -9: open alert thread intact',
      tried: Object.keys(alertsBefore).length,
      bad: lostAlerts + (parents - 1),
      note: 'keys; next change replied in the same thread',
    });
  }, 120_000);
});
