import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createAlertStateStore } from '../src/alerts/alert-state-store.js';
import { createAlertThreadStore } from '../src/alerts/alert-thread-store.js';
import type { Incident } from '../src/alerts/incident.js';
import { loadDump } from '../src/cluster/dump/load-dump.js';
import { composeJobs } from '../src/compose/compose-jobs.js';
import { configSchema, DEFAULT_THRESHOLDS, type Config } from '../src/config/config-schema.js';
import { silentLogger } from '../src/log/logger.js';
import { scanSnapshot } from '../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../src/store/in-memory-history.js';
import { createReportStore } from '../src/store/report-store.js';
import { startFakeSlackApi } from '../test/support/fake-slack-api.js';
import { startRedis } from '../test/support/start-redis.js';

/**
 * Bench child (target 12), three processes as the Helm chart runs them: `POST /alertmanager` in a
 * serve without workers (alertmanager-serve.ts), the alerts workers here (4, as in a worker pod, with
 * the alert intake's forwarder) with a real Redis and the fake Slack Web API, on the S3 scenario's
 * stored report and its root-cause thread, and the load generator (alertmanager-load.ts): ROUNDS × 50
 * concurrent webhooks of 100 alerts. Then the intake and the queue are drained and every Prometheus
 * message in Slack counted: each alert exactly once, and as many threads as root causes. argv: ROOT ROUNDS.
 */
const [root, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const S3 = `${root}/examples/scenarios/s3-recreation-loop-webhook-down`;
const NODE = 'tkc-prod-control-plane-k2v4d';
const TOKEN = 'bench-alertmanager-token-0123456789';
let result: Record<string, unknown> = {};
const redisServer = await startRedis();
const redis = new Redis(redisServer.url);
const slack = await startFakeSlackApi();
try {
  // With alertmanager.url each reply carries Silence buttons whose value names its alert's fingerprint: how alerts are
  // counted.
  const config = configSchema.parse({
    clusters: [{ name: 'tkc-prod', dump: S3, slack: { alertChannel: 'C0ALERTS' } }],
    alertmanager: { url: 'http://127.0.0.1:9' },
  }) as Config;
  // The bot's own state before the alerts arrive: the stored report and the root cause's open thread.
  const report = await scanSnapshot(await loadDump(S3), {
    history: new InMemoryHistory(),
    thresholds: DEFAULT_THRESHOLDS,
  });
  await createReportStore(redis, { keyPrefix: 'k8s-health:' }).save(report);
  const rootFinding = report.findings.find((f) => f.id === 'webhook.unavailable-blocking')!;
  const now = new Date().toISOString();
  const inc = {
    cluster: 'tkc-prod',
    fingerprint: rootFinding.fingerprint,
    key: `${rootFinding.fingerprint}.1`,
    channel: 'C0ALERTS',
    status: 'open',
    openedAt: now,
    lastSeenAt: now,
    missedScans: 0,
    finding: rootFinding,
    severity: rootFinding.severity,
    evidenceSeen: [],
    related: [],
    seq: 1,
    changes: [],
  } as Incident;
  const states = createAlertStateStore(redis, { keyPrefix: 'k8s-health:' });
  await states.save('tkc-prod', { seq: 1, incidents: { [inc.fingerprint]: inc } }, 0);
  const parent = (await (
    await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-test-token', 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C0ALERTS', text: 'root cause' }),
    })
  ).json()) as { ts: string };
  await createAlertThreadStore(redis, { keyPrefix: 'k8s-health:' }).set('tkc-prod', inc.key, {
    channel: 'C0ALERTS',
    ts: parent.ts,
    postedSeq: 1,
    proposalIds: {},
  });

  const jobs = composeJobs({
    config,
    redisUrl: redisServer.url,
    only: ['alerts'],
    slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
    channelIntervalMs: 0,
    log: silentLogger,
  });
  const workers = await jobs.start();
  const serve = fork(fileURLToPath(new URL('./alertmanager-serve.js', import.meta.url)), [redisServer.url, TOKEN], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { endpoint } = await new Promise<{ endpoint: string }>((resolve, reject) => {
    serve.once('message', (m) => resolve(m as never));
    serve.once('exit', (code) => reject(new Error(`alertmanager-serve exited with ${code}`)));
  });
  const load = fork(
    fileURLToPath(new URL('./alertmanager-load.js', import.meta.url)),
    [endpoint, TOKEN, String(rounds), NODE],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  // The chart runs serve and the workers in pods of their own, each with its CPU; on one small machine the
  // workers draining at full speed would take serve's CPU instead. They run at a lower priority here (this
  // process holds them and the fake Slack; serve, Redis and the load generator keep theirs), so the ack time
  // is serve's own, while the drain still shows every alert once.
  setPriority(10);
  const sent = await new Promise<{ ackMs: { n: number; median: number; p99: number }; sent: number }>(
    (resolve, reject) => {
      load.once('message', (m) => resolve(m as never));
      load.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
    },
  );
  // Drain: every alert shown, or five minutes (a loaded machine drains slowly; the count says how far it got). Calls
  // are looked at once each, as they arrive: re-reading all of them every time would take the CPU the workers need.
  const t0 = performance.now();
  const posts: (typeof slack.calls)[number][] = [];
  let seen = 0;
  const collect = () => {
    for (; seen < slack.calls.length; seen++) {
      const c = slack.calls[seen]!;
      if (c.method === 'chat.postMessage' && JSON.stringify(c.body.blocks ?? '').includes('*Prometheus:*'))
        posts.push(c);
    }
  };
  for (collect(); posts.length < sent.sent && performance.now() - t0 < 300_000; collect())
    await new Promise((r) => setTimeout(r, 200));
  const drainMs = performance.now() - t0;
  const fingerprintOf = (blocks: unknown) => {
    const value = (blocks as { elements?: { value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.value)?.value;
    return value ? (JSON.parse(value) as { a?: string }).a : undefined;
  };
  const distinct = new Set(posts.map((c) => fingerprintOf(c.body.blocks)));
  const threads = new Set(posts.map((c) => String(c.body.thread_ts ?? 'own')));
  serve.send({ type: 'stop' });
  await workers.close();
  result = {
    ackMs: sent.ackMs,
    sent: sent.sent,
    shown: posts.length,
    distinct: distinct.size,
    threads: threads.size,
    rootCauses: 1,
    drainMs,
  };
} finally {
  redis.disconnect();
  await slack.close();
  await redisServer.stop();
}
// Sent once Redis is stopped: exiting earlier would leave its redis-server running.
process.send!(result, () => process.exit(0));
