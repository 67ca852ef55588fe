import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort } from '../support/free-port.js';
import { signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { recordFigure } from './figures.js';

/**
 * The built `k8s-health serve` under Slack Web API faults on the answer path (429 with Retry-After,
 * 5xx, channel_not_found, msg_too_long), then a grep of everything it printed and everything the fake
 * Slack received for the secrets it was given (tokens, signing secret, etcd key contents).
 */
const SECRET = 'sekret-signing-4f9a1c77e2';
const TOKEN = 'xoxb-sekret-token-8d2e61b0';
const APP_TOKEN = 'xapp-sekret-unused-5c3a';
const KEY_MARKER = 'SEKRETKEYMATERIAL0123456789abcdef';
const DUMP = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');

let redisServer: RedisServer;
let slack: FakeSlackApi;
let dir: string;
let port: number;
let serve: SpawnedServe;

beforeAll(async () => {
  redisServer = await startRedis();
  slack = await startFakeSlackApi({ validToken: TOKEN });
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-rel-serve-'));
  // An etcd client key whose contents must never be echoed, on a cluster whose API server is down.
  writeFileSync(
    path.join(dir, 'etcd.key'),
    `-----BEGIN EC PRIVATE KEY-----\n${KEY_MARKER}\n-----END EC PRIVATE KEY-----\n`,
  );
  writeFileSync(path.join(dir, 'etcd.crt'), `-----BEGIN CERTIFICATE-----\n${KEY_MARKER}\n-----END CERTIFICATE-----\n`);
  const deadPort = await freePort();
  writeFileSync(
    path.join(dir, 'kubeconfig'),
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${deadPort}"}}]\nusers: [{name: u, user: {token: ${TOKEN}}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n`,
  );
  const config = [
    'clusters:',
    `  - name: tkc-prod`,
    `    dump: ${JSON.stringify(DUMP)}`,
    `    slack: { channels: [C0INCIDENT, C0GONE] }`,
    `  - name: live-down`,
    `    workload: { kubeconfig: ${JSON.stringify(path.join(dir, 'kubeconfig'))} }`,
    `    etcd: { endpoints: ["https://127.0.0.1:${deadPort}"], caFile: ${JSON.stringify(path.join(dir, 'etcd.crt'))}, certFile: ${JSON.stringify(path.join(dir, 'etcd.crt'))}, keyFile: ${JSON.stringify(path.join(dir, 'etcd.key'))}, timeoutMs: 500 }`,
    'scan: { freshSeconds: 3600 }',
  ].join('\n');
  writeFileSync(path.join(dir, 'config.yaml'), `${config}\n`);
  serve = await spawnServe({
    config: path.join(dir, 'config.yaml'),
    env: {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisServer.url,
      LOG_LEVEL: 'debug',
    },
  });
  port = serve.port;
  // Warm up: the first answer scans the dump; later commands answer from the stored (fresh) report.
  await command('tkc-prod', 'warm');
  await slack.waitFor('warm-up update', () => slack.callsTo('chat.update').length > 0, 30000);
});

afterAll(async () => {
  await serve?.kill();
  await slack?.close();
  await redisServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function command(text: string, id: string, channel = 'C0INCIDENT') {
  const body = slashCommandBody({ text, channel_id: channel, response_url: slack.responseUrl(id) }).replace(
    'trigger_id=1.2.3',
    `trigger_id=${id}`,
  );
  const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
    body,
  });
  return res.status;
}

const postsAfter = (n: number) => slack.callsTo('chat.postMessage').slice(n);
const responseTo = (id: string) => slack.responses.find((r) => r.path === `/response/${id}`);

describe('Slack Web API faults on the answer path (spawned serve)', () => {
  it('429 with Retry-After: retried once after the wait and posted (2 attempts, no tight loop)', async () => {
    const before = slack.callsTo('chat.postMessage').length;
    slack.fail('chat.postMessage', { status: 429, retryAfter: 1 }, 1);
    expect(await command('tkc-prod', 'r429')).toBe(200);
    await slack.waitFor('retried post', () => postsAfter(before).length === 2, 30000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(postsAfter(before)).toHaveLength(2);
    recordFigure({ suite: 'slack-faults', case: '429 Retry-After → retried', tried: 1, bad: 0, note: '2 calls' });
  });

  it('5xx twice: retried with backoff and posted; 5xx on every attempt: bounded attempts, then the user is told', async () => {
    let before = slack.callsTo('chat.postMessage').length;
    slack.fail('chat.postMessage', { status: 503 }, 2);
    await command('tkc-prod', 'r5xx-2');
    await slack.waitFor('3rd attempt succeeds', () => postsAfter(before).length === 3, 30000);

    before = slack.callsTo('chat.postMessage').length;
    slack.fail('chat.postMessage', { status: 500 }, 100);
    await command('tkc-prod', 'r5xx-all');
    const told = await slack.waitFor('ephemeral failure reply', () => responseTo('r5xx-all'), 30000);
    expect(told.body.response_type).toBe('ephemeral');
    expect(told.body.text).toContain('could not answer');
    // Retries are bounded (retryConfig: 2 retries): 3 attempts, then reported — not dropped, not looping.
    expect(postsAfter(before).length).toBe(3);
    slack.fail('chat.postMessage', { status: 500 }, 0);
    recordFigure({ suite: 'slack-faults', case: '5xx → retried / reported', tried: 2, bad: 0 });
  });

  it('channel_not_found: falls back to the response_url, in channel', async () => {
    slack.fail('chat.postMessage', { error: 'channel_not_found' }, 1);
    await command('tkc-prod', 'rcnf', 'C0GONE');
    const r = await slack.waitFor('response_url answer', () => responseTo('rcnf'), 30000);
    expect(r.body.response_type).toBe('in_channel');
    expect(JSON.stringify(r.body.blocks)).toContain('tkc-prod');
    recordFigure({ suite: 'slack-faults', case: 'channel_not_found → response_url', tried: 1, bad: 0 });
  });

  it('msg_too_long: reported to the user with the Slack error, not dropped', async () => {
    const before = slack.callsTo('chat.postMessage').length;
    slack.fail('chat.postMessage', { error: 'msg_too_long' }, 1);
    await command('tkc-prod', 'rlong');
    const r = await slack.waitFor('error reply', () => responseTo('rlong'), 30000);
    expect(r.body.response_type).toBe('ephemeral');
    expect(r.body.text).toContain('msg_too_long');
    expect(postsAfter(before)).toHaveLength(1); // a platform error is not retried blindly
    recordFigure({ suite: 'slack-faults', case: 'msg_too_long → reported', tried: 1, bad: 0 });
  });
});

describe('secrets never leak (spawned serve, LOG_LEVEL=debug)', () => {
  it('a command on a cluster whose API server and etcd (with key files) are unreachable is answered', async () => {
    await command('live-down', 'rlive');
    await slack.waitFor(
      'live-down answer',
      () => slack.callsTo('chat.postMessage').some((c) => JSON.stringify(c.body).includes('live-down')),
      30000,
    );
  });

  it('tokens, signing secret and etcd key contents appear in no log line, error or Slack message', async () => {
    // The bot token travels as the credential of each Web API call (header or `token` field): that is its
    // purpose. Everything else the bot sent — messages, blocks, responses — is grepped.
    const slackBodies = JSON.stringify([
      slack.calls.map((c) => ({ method: c.method, body: { ...c.body, token: undefined } })),
      slack.responses,
    ]);
    const output = serve.stdout + serve.stderr;
    const haystacks = { 'serve stdout+stderr': output, 'fake Slack bodies': slackBodies };
    let leaks = 0;
    const found: string[] = [];
    for (const [where, text] of Object.entries(haystacks)) {
      for (const secret of [TOKEN, SECRET, APP_TOKEN, KEY_MARKER]) {
        if (text.includes(secret)) {
          leaks += 1;
          found.push(`${secret} in ${where}`);
        }
      }
    }
    recordFigure({ suite: 'secrets', case: 'grep of logs + Slack bodies for 4 secrets', tried: 8, bad: leaks });
    expect(found).toEqual([]);
    expect(output.length).toBeGreaterThan(0);
    expect(slack.calls.length).toBeGreaterThan(5);
  });

  it('a rejected bot token: the startup error names SLACK_BOT_TOKEN, never its value', async () => {
    const p = spawn(process.execPath, ['bin/k8s-health.js', 'serve', '--config', path.join(dir, 'config.yaml')], {
      env: {
        PATH: process.env.PATH ?? '',
        SLACK_BOT_TOKEN: 'xoxb-wrong-sekret-77',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        REDIS_URL: redisServer.url,
        PORT: '0',
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => p.on('exit', resolve));
    expect(code).toBe(1);
    expect(out).toContain('SLACK_BOT_TOKEN');
    expect(out).not.toContain('xoxb-wrong-sekret-77');
    expect(out).not.toContain(SECRET);
  });
});
