import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort, waitForPort } from '../support/free-port.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { createReplayCluster, REPLAY_DIR, type ReplayCluster } from '../integration/jobs/replay-cluster.js';

/**
 * The built `k8s-health worker` (dist/) as real processes: scheduled scans (1 s) of a dump cluster
 * whose symlink we re-point, alert thread in the fake Slack, a worker process replaced in the middle
 * of the open incident, probes and /metrics on PORT, and a Redis outage reported on /readyz and survived.
 */
describe('k8s-health worker (spawned): alert threads across process restarts', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  let replay: ReplayCluster;
  let dir: string;
  let configFile: string;
  let port: number;
  const children: ChildProcess[] = [];
  const reader = () => new Redis(redis.url, { maxRetriesPerRequest: 1 });

  function spawnWorker(name: string): { child: ChildProcess; exit: Promise<number | null>; out: () => string } {
    let out = '';
    const child = spawn(process.execPath, ['bin/k8s-health.js', 'worker', '--config', configFile], {
      env: {
        PATH: process.env.PATH,
        REDIS_URL: redis.url,
        PORT: String(port),
        SLACK_BOT_TOKEN: 'xoxb-test-token',
        SLACK_API_URL: slack.apiUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    children.push(child);
    workers.push({ name, out: () => out });
    return { child, exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))), out: () => out };
  }

  /** Each step's name and when it ended: a failure (or the test's own timeout) says where the time went. */
  const steps: string[] = [];
  let t0 = 0;
  const workers: { name: string; out: () => string }[] = [];
  function diagnosis(): string {
    const thread = slack
      .callsTo('chat.postMessage')
      .map(
        (c) =>
          `${String(c.body.thread_ts ?? '(parent)')}: ${JSON.stringify(c.body.blocks ?? c.body.text).slice(0, 300)}`,
      );
    return [
      `steps: ${steps.join(' | ')}`,
      `slack posts:\n${thread.join('\n')}`,
      ...workers.map((w) => `${w.name} output (last 4 KB):\n${w.out().slice(-4096)}`),
    ].join('\n');
  }
  /** One bounded step: its name and duration go into `steps`; a failure carries the whole diagnosis. */
  async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      const v = await fn();
      steps.push(`${what} ${Date.now() - started}ms (+${Date.now() - t0}ms)`);
      return v;
    } catch (err) {
      steps.push(`${what} FAILED after ${Date.now() - started}ms`);
      throw new Error(`${(err as Error).message}\n${diagnosis()}`);
    }
  }
  function exitWithin(w: { exit: Promise<number | null> }, ms: number): Promise<number | null> {
    return Promise.race([
      w.exit,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit within ${ms} ms of SIGTERM`)), ms).unref(),
      ),
    ]);
  }

  async function readyz(): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 30000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // A worker that exited is not waited for: say so at once (its output is in the diagnosis).
      const dead = children.find((c) => c.exitCode !== null && !c.killed);
      if (dead) throw new Error(`a worker exited (code ${dead.exitCode}) while waiting for ${what}`);
      const v = await fn().catch(() => undefined);
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function scannedAt(collectedAt: string) {
    const r = reader();
    try {
      await until(`a scan of the dump collected at ${collectedAt}`, async () => {
        const raw = await r.get('k8s-health:report:tkc-loop');
        return (
          raw !== null && (JSON.parse(raw) as { report: { collectedAt: string } }).report.collectedAt === collectedAt
        );
      });
    } finally {
      r.disconnect();
    }
  }

  beforeAll(async () => {
    redis = await startRedis({ appendonly: true });
    slack = await startFakeSlackApi();
    replay = createReplayCluster();
    replay.show(path.join(REPLAY_DIR, 't00'));
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-worker-'));
    configFile = path.join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      `clusters:\n  - name: tkc-loop\n    dump: ${JSON.stringify(replay.link)}\n    slack: { alertChannel: C0ALERTS }\nscan: { intervalSeconds: 1, resolveAfterScans: 3 }\nthresholds: { loopReplacements: 2 }\n`,
    );
    port = await freePort();
  });

  afterAll(async () => {
    // Cut off by the test's timeout, no step threw: say where it stood.
    if (t0 && !steps.some((s) => s.startsWith('worker #2 exits') || s.includes('FAILED')))
      process.stderr.write(`alert-threads did not finish:\n${diagnosis()}\n`);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await slack.close();
    await redis.stop();
    replay.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  // Every step below is bounded and named (`step`); under a loaded CI machine the spawned processes start
  // in seconds, not the hundreds of ms they take alone, so the whole test gets room the steps cannot use up.
  it('keeps one thread through a worker restart and reports a Redis outage on /readyz', async () => {
    t0 = Date.now();
    const first = spawnWorker('worker #1');
    await step('worker #1 listening', () => waitForPort(port, 30000));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    await step('worker #1 ready', () => until('worker #1 ready', async () => (await readyz()).status === 200));

    // Every dump must be scanned at least once, as a live cluster would be every interval.
    await step('scan t00', () => scannedAt('2025-02-17T10:00:00Z'));
    replay.show(path.join(REPLAY_DIR, 't12'));
    await step('scan t12', () => scannedAt('2025-02-17T10:12:00Z'));
    replay.show(path.join(REPLAY_DIR, 't24'));
    await step('scan t24', () => scannedAt('2025-02-17T10:24:00Z'));
    const parent = await step('the parent', () =>
      slack.waitFor(
        'the parent',
        () => slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0ALERTS' && !c.body.thread_ts),
        30000,
      ),
    );
    expect(JSON.stringify(parent.body.blocks)).toContain('2 machine replacements');
    // /metrics on the same port: this process's scans and alert post (jobs/create-worker-metrics.ts).
    const metrics = await step('metrics', () =>
      until('scan and notify jobs on /metrics', async () => {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) });
        const text = await res.text();
        const counted =
          /^k8s_health_scan_jobs_total\{cluster="tkc-loop",outcome="ok"\} [1-9]/m.test(text) &&
          /^k8s_health_notify_jobs_total\{outcome="ok"\} [1-9]/m.test(text);
        return res.status === 200 && res.headers.get('content-type')?.startsWith('text/plain; version=0.0.4') && counted
          ? text
          : undefined;
      }),
    );
    expect(metrics).toMatch(/^k8s_health_scan_duration_seconds_count\{cluster="tkc-loop"\} [1-9]/m);
    expect(metrics).toMatch(/^k8s_health_process_resident_memory_bytes \d/m);
    const parentTs = [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/'))!.split('/')[1]!;

    // Replace the worker process in the middle of the open incident.
    first.child.kill('SIGTERM');
    expect(await step('worker #1 exits', () => exitWithin(first, 30000))).toBe(0);
    // Worker #2 on a port of its own: the port worker #1 freed may be taken by a parallel test by now.
    port = await freePort();
    const second = spawnWorker('worker #2');
    await step('worker #2 ready', () => until('worker #2 ready', async () => (await readyz()).status === 200));
    replay.show(path.join(REPLAY_DIR, 't36'));
    // Worker #2 may scan t24 once more before t36 (no change, no reply); the reply that counts is the
    // one for t36's third replacement.
    const reply = await step('the recreation reply from worker #2', () =>
      slack.waitFor(
        'the recreation reply from worker #2',
        () =>
          slack
            .callsTo('chat.postMessage')
            .find(
              (c) =>
                c.body.thread_ts === parentTs && JSON.stringify(c.body.blocks).includes('Recreation counted again'),
            ),
        30000,
      ),
    );
    expect(JSON.stringify(reply.body.blocks)).toContain('machine replacements');
    expect(
      slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS' && !c.body.thread_ts),
    ).toHaveLength(1);

    // Redis goes away: /readyz says so (503), the process stays up, and recovers when Redis is back.
    await step('redis killed', () => redis.kill());
    const down = await step('readyz 503', () =>
      until('readyz 503', async () => {
        const r = await readyz();
        return r.status === 503 ? r : undefined;
      }),
    );
    expect(String(down.body.redis)).not.toBe('ok');
    expect(second.child.exitCode).toBeNull();
    await step('redis restarted', () => redis.restart());
    await step('readyz 200 again', () => until('readyz 200 again', async () => (await readyz()).status === 200));

    second.child.kill('SIGTERM');
    expect(await step('worker #2 exits', () => exitWithin(second, 30000))).toBe(0);
    expect(second.out()).toContain('stopped');
  }, 240_000);
});
