import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { createReportStore } from '../../src/store/report-store.js';
import { DETAILS_ACTION_ID } from '../../src/slack/action-ids.js';
import { cardState } from '../support/card-lines.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort } from '../support/free-port.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * The built `k8s-health serve` (dist/, built by `npm test` before jest) against a dump-backed cluster
 * (seed S3: recreation loop, kyverno webhook down), a private Redis and the fake Slack Web API.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

const SECRET = 'e2e-signing-secret';
const TOKEN = 'xoxb-e2e-token';
const DUMP = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');

let redisServer: RedisServer;
let slack: FakeSlackApi;
let dir: string;
let configFile: string;
let port: number;
let serve: SpawnedServe;

/** The serve environment (spawnServe adds PATH and a free PORT). */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: redisServer.url,
    LOG_LEVEL: 'error',
    ...extra,
  };
}

beforeAll(async () => {
  redisServer = await startRedis();
  slack = await startFakeSlackApi({ validToken: TOKEN });
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-serve-'));
  configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `clusters:\n  - name: tkc-prod\n    dump: ${JSON.stringify(DUMP)}\n    slack: { channels: [C0INCIDENT] }\nscan: { freshSeconds: 30 }\n`,
  );
  serve = await spawnServe({ config: configFile, env: env() });
  port = serve.port;
});

afterAll(async () => {
  await serve?.kill();
  await slack?.close();
  await redisServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function post(body: string) {
  const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
    body,
  });
  return { status: res.status, text: await res.text() };
}

const text = (blocks: AnyBlock[]) => JSON.stringify(blocks);
const updatesOf = (ts: string) => slack.callsTo('chat.update').filter((c) => c.body.ts === ts);

describe('k8s-health serve (spawned, http mode)', () => {
  it('logs the listening line', () => {
    expect(serve.stdout).toContain(`k8s-health serve listening on :${port} (http mode)`);
  });

  it('with no stored report answers "scanning…" at once, then the whole report in place', async () => {
    const res = await post(slashCommandBody({ text: 'tkc-prod', response_url: slack.responseUrl() }));
    expect(res.status).toBe(200);
    const [posted] = await slack.waitFor(
      'chat.postMessage',
      () => slack.callsTo('chat.postMessage').length === 1 && slack.callsTo('chat.postMessage'),
      30000,
    );
    expect(posted!.body.channel).toBe('C0INCIDENT');
    expect(posted!.body.blocks[0].text.text).toBe('tkc-prod: scanning…');
    const ts = [...slack.messages.keys()][0]!.split('/')[1]!;
    const [update] = await slack.waitFor('chat.update', () => updatesOf(ts).length === 1 && updatesOf(ts), 30000);
    const blocks = update!.body.blocks as AnyBlock[];
    expect(cardState(blocks)).toBe('tkc-prod: critical');
    // The card: the dump's capture time as a date token, never an age; the root cause with its runbook.
    expect(text(blocks)).toMatch(/scanned <!date\^\d+\^[^>]*> · data collected <!date\^\d+\^/);
    expect(text(blocks)).not.toMatch(/ ago\b/);
    expect(text(blocks)).toContain('kyverno-resource-validating-webhook-cfg');
    expect(text(blocks)).toContain('/docs/diagnosis.md#webhookunavailable-blocking|runbook>');
    // Fix buttons, and the other fixes in an overflow menu beside them: each carries only its proposal id.
    const fixes = blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as AnyBlock[]);
    expect(fixes.filter((b) => b.action_id === DETAILS_ACTION_ID)).toEqual([]);
    const buttons = fixes.filter((b) => b.type === 'button');
    expect(buttons.length).toBeGreaterThan(0);
    expect(buttons.map((b) => b.text.text)).toContain('Suspend webhook kyverno-resource-validating-webhook-cfg');
    for (const b of buttons) expect(b.value).toMatch(/^p_[A-Za-z0-9_-]+$/);
    for (const o of fixes.filter((b) => b.type === 'overflow').flatMap((b) => b.options as AnyBlock[]))
      expect(o.value).toMatch(/^p_[A-Za-z0-9_-]+$/);

    const click = await post(
      blockActionBody({
        actionId: buttons[0]!.action_id,
        value: buttons[0]!.value,
        message_ts: ts,
        response_url: slack.responseUrl('e2e-click'),
      }),
    );
    expect(click.status).toBe(200);
    const reply = await slack.waitFor(
      'click reply',
      () => slack.responses.find((r) => r.path === '/response/e2e-click'),
      30000,
    );
    expect(reply.body.response_type).toBe('ephemeral');
    expect(reply.body.text).toContain('Not proposed'); // dump-backed clusters are never remediated
  });

  it('answers a stale stored report at once, marked stale, and updates the same message when the fresh scan lands', async () => {
    const redis = new Redis(redisServer.url);
    try {
      const latest = await createReportStore(redis, { keyPrefix: 'k8s-health:' }).latest('tkc-prod');
      expect(latest).toBeDefined();
      // Age the stored report: as if its scan ended an hour ago (freshSeconds is 30).
      await createReportStore(redis, { keyPrefix: 'k8s-health:', now: () => new Date(Date.now() - 3600_000) }).save(
        latest!.report,
      );
    } finally {
      redis.disconnect();
    }
    const before = slack.callsTo('chat.postMessage').length;
    await post(slashCommandBody({ text: 'tkc-prod webhooks', response_url: slack.responseUrl() }));
    const posted = await slack.waitFor('stale post', () => slack.callsTo('chat.postMessage')[before], 30000);
    expect(cardState(posted.body.blocks)).toBe('tkc-prod · Webhooks: critical');
    expect(text(posted.body.blocks)).toContain('*stale*, refreshing');
    const ts = [...slack.messages.keys()][before]!.split('/')[1]!;
    const [update] = await slack.waitFor('in-place update', () => updatesOf(ts).length === 1 && updatesOf(ts), 30000);
    expect(update!.body.channel).toBe('C0INCIDENT');
    expect(cardState(update!.body.blocks)).toBe('tkc-prod · Webhooks: critical');
    expect(text(update!.body.blocks)).not.toContain('stale');
  });

  it('answers an unknown cluster ephemerally, naming what was typed', async () => {
    const res = await post(slashCommandBody({ text: 'tkc-staging', response_url: slack.responseUrl() }));
    expect(JSON.parse(res.text)).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('Unknown cluster "tkc-staging"'),
    });
  });

  it('serves /healthz, /readyz and /metrics on PORT', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    // serve runs its workers in-process (no --no-workers), so they are part of readiness.
    expect(await ready.json()).toEqual({ ready: true, redis: 'ok', slack: 'ok', workers: 'ok' });
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/k8s_health_commands_total\{outcome="scanning"\} 1/);
    expect(metrics).toMatch(/k8s_health_scans_total [1-9]/);
    // The in-process workers record into the same registry (jobs/create-worker-metrics.ts).
    expect(metrics).toMatch(/k8s_health_scan_jobs_total\{cluster="tkc-prod",outcome="ok"\} \d/);
  });

  it('stops gracefully on SIGTERM with exit code 0', async () => {
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(serve.stderr).toBe('');
  });

  it('exits 1 with one line naming SLACK_BOT_TOKEN when Slack rejects the token', async () => {
    // Async spawn: the fake Slack runs in this process, so a blocking spawnSync would starve it.
    const bad = spawn(process.execPath, ['bin/k8s-health.js', 'serve', '--config', configFile], {
      env: { PATH: process.env.PATH ?? '', ...env({ SLACK_BOT_TOKEN: 'xoxb-wrong' }), PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    bad.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => bad.on('exit', resolve));
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain('SLACK_BOT_TOKEN');
    expect(err).toContain('invalid_auth');
  });
});
