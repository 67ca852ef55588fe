import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import type { App } from '@slack/bolt';
import { parseConfig } from '../../src/config/load-config.js';
import { createMetrics } from '../../src/slack/receive/create-metrics.js';
import { createReplayGuard } from '../../src/slack/receive/create-replay-guard.js';
import { createScanRequester } from '../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../src/slack/receive/create-slack-app.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { registerListeners } from '../../src/slack/register-listeners.js';
import { createReportStore } from '../../src/store/report-store.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { recordFigure, scaled } from './figures.js';
import { captureLogs } from '../support/capture-logs.js';

/**
 * Hostile requests against the real Bolt HTTP receiver, wired as `serve` wires it (replay guard on
 * Redis). "Accepted" = the request reached a listener: a global middleware registered after the
 * guard counts those. Every forged request must end at 401 (or, for a replay, an empty ack) with 0 reached.
 */
const SECRET = 'reliability-signing-secret';
const TOKEN = 'xoxb-reliability-token';
const config = parseConfig(
  { clusters: [{ name: 'prod-east', dump: './x', slack: { channels: ['C0INCIDENT'] } }] },
  '/tmp',
);

let redisServer: RedisServer;
let redis: Redis;
let slack: FakeSlackApi;
let app: App;
let url: string;
let reached = 0;
const logs: string[] = [];

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
  slack = await startFakeSlackApi({ validToken: TOKEN });
  const reports = createReportStore(redis, { keyPrefix: 'rel:' });
  const started = await createSlackApp({
    botToken: TOKEN,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    logLevel: 'error',
    replayGuard: createReplayGuard(redis, { keyPrefix: 'rel:', onReplay: () => logs.push('replay') }),
  });
  app = started.app;
  app.use(async ({ next }) => {
    reached += 1;
    await next();
  });
  registerListeners(app, {
    config,
    reports,
    proposals: createProposalStore(redis, { keyPrefix: 'rel:' }),
    requestScan: createScanRequester(async () => {
      throw new Error('no scans in this test');
    }, reports),
    metrics: createMetrics({ defaultMetrics: false }),
    now: () => new Date(),
    log: captureLogs().log,
  });
  const server = (await app.start(0)) as Server;
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
});

afterAll(async () => {
  await app?.stop();
  redis?.disconnect();
  await slack?.close();
  await redisServer?.stop();
});

async function post(body: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  await res.text();
  return res.status;
}

let seq = 0;
/** A distinct, well-formed body: a slash command or a button click (unique trigger_id / response_url). */
function body(kind: 'command' | 'action', text = 'help'): string {
  seq += 1;
  const responseUrl = slack.responseUrl(`forged-${seq}`);
  return kind === 'command'
    ? slashCommandBody({ text: `${text} `.repeat(1 + (seq % 2)).trim(), response_url: responseUrl }).replace(
        'trigger_id=1.2.3',
        `trigger_id=${seq}.1`,
      )
    : blockActionBody({
        actionId: 'k8s-health.propose-fix.0',
        value: `p_forged${seq}`,
        response_url: responseUrl,
        message_ts: `1700000000.${String(seq).padStart(6, '0')}`,
      });
}

const nowTs = () => Math.floor(Date.now() / 1000);
const kindArb = fc.constantFrom<'command' | 'action'>('command', 'action');

/** Send a batch of requests built by `forge`; return how many reached a listener and the statuses seen. */
async function attack(n: number, forge: fc.Arbitrary<{ body: string; headers: Record<string, string> }>) {
  const before = reached;
  const statuses = new Map<number, number>();
  for (const r of fc.sample(forge, n)) {
    const status = await post(r.body, r.headers);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return { accepted: reached - before, statuses };
}

describe('forged Slack requests against the real Bolt receiver', () => {
  const n = scaled(30);

  it(`${n} signatures made with a wrong secret or over another body: 0 accepted`, async () => {
    const forge = fc
      .tuple(kindArb, fc.string({ minLength: 0, maxLength: 40 }), fc.boolean())
      .map(([kind, wrongSecret, tamper]) => {
        const b = body(kind);
        // Either a signature with a guessed secret, or Slack's real signature over a body the attacker then changed.
        const headers = tamper
          ? signSlackRequest(SECRET, b)
          : signSlackRequest(wrongSecret === SECRET ? `${SECRET}x` : wrongSecret, b);
        return { body: tamper ? b.replace('U0', 'U9') : b, headers };
      });
    const { accepted, statuses } = await attack(n, forge);
    recordFigure({ suite: 'forged-requests', case: 'bad signature', tried: n, bad: accepted });
    expect(accepted).toBe(0);
    expect([...statuses.keys()]).toEqual([401]);
  });

  it(`${n} correctly signed requests with stale timestamps (> 5 min): 0 accepted`, async () => {
    const forge = fc.tuple(kindArb, fc.integer({ min: 5 * 60 + 5, max: 10 * 365 * 24 * 3600 })).map(([kind, age]) => {
      const b = body(kind);
      return { body: b, headers: signSlackRequest(SECRET, b, nowTs() - age) };
    });
    const { accepted, statuses } = await attack(n, forge);
    recordFigure({ suite: 'forged-requests', case: 'stale timestamp', tried: n, bad: accepted });
    expect(accepted).toBe(0);
    expect([...statuses.keys()]).toEqual([401]);
  });

  it(`${n} requests with missing or malformed signature headers: 0 accepted`, async () => {
    const forge = fc
      .tuple(
        kindArb,
        fc.constantFrom(
          'none',
          'no-signature',
          'no-timestamp',
          'v1-scheme',
          'empty',
          'not-hex',
          'ts-not-number',
          'ts-float',
        ),
      )
      .map(([kind, how]) => {
        const b = body(kind);
        const good = signSlackRequest(SECRET, b);
        const sig = good['x-slack-signature']!;
        const ts = good['x-slack-request-timestamp']!;
        const headers: Record<string, string> = {
          none: {},
          'no-signature': { 'x-slack-request-timestamp': ts },
          'no-timestamp': { 'x-slack-signature': sig },
          'v1-scheme': { 'x-slack-signature': sig.replace('v0=', 'v1='), 'x-slack-request-timestamp': ts },
          empty: { 'x-slack-signature': '', 'x-slack-request-timestamp': '' },
          'not-hex': { 'x-slack-signature': 'v0=zz' + sig.slice(5), 'x-slack-request-timestamp': ts },
          'ts-not-number': { 'x-slack-signature': sig, 'x-slack-request-timestamp': 'now' },
          'ts-float': { 'x-slack-signature': sig, 'x-slack-request-timestamp': `${ts}.5` },
        }[how]!;
        return { body: b, headers };
      });
    const { accepted, statuses } = await attack(n, forge);
    recordFigure({ suite: 'forged-requests', case: 'missing/malformed headers', tried: n, bad: accepted });
    expect(accepted).toBe(0);
    expect([...statuses.keys()]).toEqual([401]);
  });

  it(`${n} replays of correctly signed requests within 5 minutes (sequential and concurrent): 0 accepted`, async () => {
    // Originals: each accepted once.
    const originals = Array.from({ length: Math.max(2, Math.floor(n / 10)) }, (_, i) => {
      const b = body(i % 2 ? 'action' : 'command');
      return { body: b, headers: signSlackRequest(SECRET, b) };
    });
    const before = reached;
    for (const o of originals) expect(await post(o.body, o.headers)).toBe(200);
    expect(reached - before).toBe(originals.length);
    const afterOriginals = reached;
    const replays = fc.sample(fc.constantFrom(...originals), n);
    const half = Math.floor(n / 2);
    const statuses: number[] = [];
    for (const r of replays.slice(0, half)) statuses.push(await post(r.body, r.headers));
    statuses.push(...(await Promise.all(replays.slice(half).map((r) => post(r.body, r.headers)))));
    const accepted = reached - afterOriginals;
    recordFigure({
      suite: 'forged-requests',
      case: 'replay within 5 min',
      tried: n,
      bad: accepted,
      note: 'acked empty, never processed',
    });
    expect(accepted).toBe(0);
    expect(logs.filter((l) => l === 'replay')).toHaveLength(n);
    // A replay gets an empty ack (Slack shows nothing), never an error the attacker can probe.
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('a fresh, correctly signed request still gets through after all that (the guard is not a blanket block)', async () => {
    const b = body('command');
    const before = reached;
    expect(await post(b, signSlackRequest(SECRET, b))).toBe(200);
    expect(reached - before).toBe(1);
  });
});
