import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort } from '../support/free-port.js';
import { signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe } from '../support/spawn-serve.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * Redis outages as an operator sees them, with the built CLI: Redis unreachable at start and
 * mid-run. What must hold: /readyz says 503, the log names the address (never the password) in one
 * warning line per 30 s — no ioredis stack traces —, a slash command answers "state store
 * unreachable" at once, everything resumes by itself when Redis returns, and SIGTERM exits within
 * 10 s however long Redis has been gone.
 */
const SECRET = 'outage-signing-secret';
const TOKEN = 'xoxb-outage-token';
const PASSWORD = 'hunter2-outage';
const DUMP = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');

let slack: FakeSlackApi;
let dir: string;
let configFile: string;

beforeAll(async () => {
  slack = await startFakeSlackApi({ validToken: TOKEN });
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-outage-'));
  configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `clusters:\n  - name: tkc-prod\n    dump: ${JSON.stringify(DUMP)}\n    slack: { channels: [C0INCIDENT] }\nscan: { freshSeconds: 30, intervalSeconds: 3600 }\n`,
  );
});

afterAll(async () => {
  await slack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = (redisPort: number) => ({
  SLACK_BOT_TOKEN: TOKEN,
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${redisPort}`,
  LOG_LEVEL: 'error',
});

const outageLines = (out: string) => out.split('\n').filter((l) => l.includes('Redis unreachable'));

/** What no outage may print: a password, ioredis's unhandled-error dumps, stack frames. */
function expectCleanOutput(out: string): void {
  expect(out).not.toContain(PASSWORD);
  expect(out).not.toContain('Unhandled error event');
  expect(out).not.toMatch(/\n\s+at /);
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  out: () => string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\noutput:\n${out().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function readyz(port: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function command(port: number, text: string): Promise<{ status: number; body: string }> {
  const body = slashCommandBody({ text, response_url: slack.responseUrl() });
  const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    signal: AbortSignal.timeout(5000),
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
    body,
  });
  return { status: res.status, body: await res.text() };
}

/** SIGTERM, and the exit code if the process is gone within 10 s (undefined if not, then SIGKILL). */
async function terminate(child: ChildProcess): Promise<number | null | undefined> {
  const exited = new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code)),
  );
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 10_000))),
  ]);
  clearTimeout(timer);
  if (code === undefined) {
    child.kill('SIGKILL');
    await exited;
  }
  return code;
}

describe('serve through Redis outages (spawned)', () => {
  it('unreachable at start, back, gone mid-run: 503, one clean line naming the address, "state store unreachable", resumes, SIGTERM within 10 s', async () => {
    const redisPort = await freePort();
    const serve = await spawnServe({ config: configFile, env: env(redisPort) });
    const out = () => serve.stdout + serve.stderr;
    let redis: RedisServer | undefined;
    try {
      // Unreachable at start.
      const down = await until(
        '/readyz 503 naming Redis',
        async () => {
          const r = await readyz(serve.port);
          return r.status === 503 && r.body.redis !== 'ok' && r;
        },
        out,
      );
      expect(down.body.ready).toBe(false);
      await until('the outage warning', async () => outageLines(out()).length > 0, out);
      const answer = await command(serve.port, 'tkc-prod');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        response_type: 'ephemeral',
        text: expect.stringContaining('state store unreachable'),
      });
      // Every connection of the process (commands, queues, workers, fleet) retried many times by now:
      // still one line, naming the address without the password.
      await new Promise((r) => setTimeout(r, 3000));
      const lines = outageLines(out());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`127.0.0.1:${redisPort}`);
      expectCleanOutput(out());

      // Redis comes up: everything resumes by itself.
      redis = await startRedis({ port: redisPort, password: PASSWORD });
      await until('/readyz 200', async () => (await readyz(serve.port)).status === 200, out, 60_000);
      expect(out()).toContain('Redis reachable again');
      const before = slack.callsTo('chat.postMessage').length;
      const normal = await command(serve.port, 'tkc-prod');
      expect(normal.body).not.toContain('state store unreachable');
      await slack.waitFor(
        'the command answered in the channel',
        () => slack.callsTo('chat.postMessage').length > before,
        30_000,
      );

      // Gone mid-run (kill -9): the same.
      await redis.kill(true);
      await until('/readyz 503 again', async () => (await readyz(serve.port)).status === 503, out);
      await until('a second outage warning', async () => outageLines(out()).length === 2, out);
      const again = await command(serve.port, 'tkc-prod');
      expect(JSON.parse(again.body)).toEqual({
        response_type: 'ephemeral',
        text: expect.stringContaining('state store unreachable'),
      });
      await new Promise((r) => setTimeout(r, 2000));
      expect(outageLines(out())).toHaveLength(2);
      expectCleanOutput(out());

      expect(await terminate(serve.child)).toBe(0);
      expectCleanOutput(out());
    } finally {
      await serve.kill();
      await redis?.stop();
    }
  }, 120_000);

  it('never reachable: serve and a worker both exit within 10 s of SIGTERM, without a stack trace', async () => {
    const redisPort = await freePort();
    const serve = await spawnServe({ config: configFile, env: env(redisPort) });
    const workerPort = await freePort();
    const worker = spawn(process.execPath, ['bin/k8s-health.js', 'worker', '--config', configFile], {
      env: {
        PATH: process.env.PATH ?? '',
        K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET,
        ...env(redisPort),
        PORT: String(workerPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let workerOut = '';
    worker.stdout!.on('data', (d: Buffer) => (workerOut += d.toString()));
    worker.stderr!.on('data', (d: Buffer) => (workerOut += d.toString()));
    try {
      await until(
        'the worker probe answering 503',
        async () => (await fetch(`http://127.0.0.1:${workerPort}/readyz`)).status === 503,
        () => workerOut,
      );
      await until(
        'both outage warnings',
        async () => outageLines(serve.stdout).length > 0 && outageLines(workerOut).length > 0,
        () => serve.stdout + workerOut,
      );
      const [serveCode, workerCode] = await Promise.all([terminate(serve.child), terminate(worker)]);
      expect(serveCode).toBe(0);
      expect(workerCode).not.toBeUndefined();
      expect(outageLines(workerOut)).toHaveLength(1);
      expect(outageLines(workerOut)[0]).toContain(`127.0.0.1:${redisPort}`);
      expectCleanOutput(serve.stdout + serve.stderr);
      expectCleanOutput(workerOut);
    } finally {
      await serve.kill();
      if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    }
  }, 60_000);
});
