import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { startFakeSocketMode, type FakeSocketMode } from '../support/fake-socket-mode.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * `k8s-health serve` in Socket Mode (SLACK_APP_TOKEN set): it opens its connection through
 * apps.connections.open on SLACK_API_URL, receives a slash command envelope over the WebSocket,
 * acks it on the socket, and answers in the channel through the Web API — no public URL involved.
 */
const DUMP = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
const TOKEN = 'xoxb-socket-token';
const APP_TOKEN = 'xapp-socket-token';

let redisServer: RedisServer;
let socket: FakeSocketMode;
let slack: FakeSlackApi;
let dir: string;
let port: number;
let serve: SpawnedServe;

beforeAll(async () => {
  redisServer = await startRedis();
  socket = await startFakeSocketMode();
  slack = await startFakeSlackApi({ validToken: TOKEN, appToken: APP_TOKEN, socketModeUrl: socket.url });
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-socket-'));
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `clusters:\n  - name: tkc-prod\n    dump: ${JSON.stringify(DUMP)}\n    slack: { channels: [C0SOCKET] }\n`,
  );
  serve = await spawnServe({
    config: configFile,
    env: {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisServer.url,
      LOG_LEVEL: 'error',
    },
  });
  port = serve.port;
});

afterAll(async () => {
  await serve?.kill();
  await socket?.close();
  await slack?.close();
  await redisServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('serve in Socket Mode', () => {
  it('connects through apps.connections.open on SLACK_API_URL with the app-level token', async () => {
    await socket.connected();
    const open = slack.callsTo('apps.connections.open');
    expect(open.length).toBeGreaterThan(0);
    expect(open[0]!.token).toBe(APP_TOKEN);
  });

  it('acks a /k8s-health envelope on the socket and answers in the channel', async () => {
    await socket.connected();
    socket.send({
      envelope_id: 'env-1',
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: {
        token: 'legacy',
        team_id: 'T0TEAM',
        team_domain: 'test',
        channel_id: 'C0SOCKET',
        channel_name: 'incident',
        user_id: 'U0SRE',
        user_name: 'sre',
        command: '/k8s-health',
        text: 'tkc-prod',
        api_app_id: 'A0TEST',
        response_url: slack.responseUrl(),
        trigger_id: '1.2.3',
      },
    });
    await slack.waitFor('ack on the socket', () => socket.received.find((m) => m.envelope_id === 'env-1'), 15000);
    // The answer: posted in the channel, then (after the first scan) updated in place with the report.
    const answer = await slack.waitFor(
      'the report in the channel',
      () =>
        [...slack.messages.entries()].find(
          ([key, m]) =>
            key.startsWith('C0SOCKET/') &&
            JSON.stringify(m.blocks ?? '').includes('kyverno-resource-validating-webhook-cfg'),
        )?.[1],
      30000,
    );
    expect(JSON.stringify(answer.blocks)).toContain('tkc-prod');
    expect(
      slack
        .callsTo('chat.update')
        .some((c) => c.body.channel === 'C0SOCKET' && String(c.body.text).startsWith('tkc-prod: critical')),
    ).toBe(true);
    expect(serve.stdout).toContain('(socket mode)');
    expect(serve.stdout + serve.stderr).not.toMatch(/error/i);
  });

  it('/healthz answers on PORT in Socket Mode too', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
