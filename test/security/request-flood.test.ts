import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

const SECRET = 'flood-signing-secret';
const TOKEN = 'xoxb-flood-token';
const DUMP = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
/** The chart's memory limit for `serve` (helm/values.yaml: 512Mi), less room for what the process holds anyway. */
const RSS_BOUND = 400 * 1024 * 1024;

let redisServer: RedisServer;
let slack: FakeSlackApi;
let serve: SpawnedServe;
let dir: string;

beforeAll(async () => {
  if (!existsSync('dist/cli/run-cli.js'))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  redisServer = await startRedis();
  slack = await startFakeSlackApi({ validToken: TOKEN });
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-flood-'));
  const config = path.join(dir, 'config.yaml');
  writeFileSync(
    config,
    `clusters:\n  - name: tkc-prod\n    dump: ${JSON.stringify(DUMP)}\n    slack: { channels: [C0INCIDENT] }\n`,
  );
  serve = await spawnServe({
    config,
    env: {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisServer.url,
      LOG_LEVEL: 'error',
    },
  });
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  await slack?.close();
  await redisServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/**
 * One attacker connection: an unsigned POST to the Slack route declaring `length` bytes, sending all
 * but the last one, then stalling. Resolves when the server closed it, with when that happened.
 */
function stall(port: number, length: number, chunk: Buffer): { closed: Promise<number> } {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined); // the server cutting us off is the expected end
  socket.resume(); // read (and drop) the answer: a socket that never reads never sees the server close it
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  const feed = async () => {
    socket.write(
      `POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`,
    );
    let left = length - 1;
    while (left > 0 && !socket.destroyed) {
      const part = chunk.subarray(0, Math.min(chunk.length, left));
      left -= part.length;
      if (!socket.write(part)) await new Promise((r) => (socket.once('drain', r), socket.once('close', r)));
    }
  };
  // feed never rejects: writes to a socket the server closed fail through its 'error' event, handled above.
  socket.on('connect', () => void feed());
  return { closed };
}

/**
 * 150 connections each declaring about 4 MB of unsigned body and stalling (what pushed `serve` from
 * 160 to 528 MB, past the chart's limit), plus 40 that stay under the body cap and stall: `serve`
 * stays under its memory bound, closes every stalled connection within 60 s, and still answers.
 */
describe('unauthenticated requests cannot exhaust serve', () => {
  it('many slow large bodies: memory stays bounded, stalled connections are closed, serve still answers', async () => {
    const pid = serve.child.pid!;
    let peak = rss(pid);
    const sampler = setInterval(() => {
      if (existsSync(`/proc/${pid}/status`)) peak = Math.max(peak, rss(pid));
    }, 50);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const started = Date.now();
    const closedAt: (number | undefined)[] = [];
    try {
      const attackers = [
        ...Array.from({ length: 150 }, () => stall(serve.port, 4_000_000, chunk)),
        ...Array.from({ length: 40 }, () => stall(serve.port, 200_000, chunk)),
      ];
      attackers.forEach((a, i) => void a.closed.then((t) => (closedAt[i] = t)));
      await Promise.race([Promise.all(attackers.map((a) => a.closed)), new Promise((r) => setTimeout(r, 65_000))]);
    } finally {
      clearInterval(sampler);
    }
    const openAfter = (from: number, to: number, limitMs: number) =>
      Array.from({ length: to - from }, (_, i) => closedAt[from + i]).filter(
        (t) => t === undefined || t - started > limitMs,
      ).length;
    // Bounds, not timings: every connection closed by 60 s, the peak under the bound (all figures shown on failure).
    expect({
      largeOpenAfter60s: openAfter(0, 150, 60_000),
      smallOpenAfter60s: openAfter(150, 190, 60_000),
      peakMiB: Math.round(peak / 1048576),
      underBound: peak < RSS_BOUND,
    }).toEqual({
      largeOpenAfter60s: 0,
      smallOpenAfter60s: 0,
      peakMiB: expect.any(Number),
      underBound: true,
    });
    expect(serve.child.exitCode).toBeNull();
    // Still serving: the probe, and a signed command.
    expect((await fetch(`http://127.0.0.1:${serve.port}/healthz`)).status).toBe(200);
    const body = slashCommandBody({
      text: 'help',
      channel_id: 'C0INCIDENT',
      response_url: slack.responseUrl('after-flood'),
    });
    const res = await fetch(`http://127.0.0.1:${serve.port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
      body,
    });
    expect(res.status).toBe(200);
  }, 120_000);
});
