import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Cluster } from 'ioredis';
import { readEnvOptions } from '../../src/config/read-env-options.js';
import { Queue } from 'bullmq';
import { parseWebhook } from '../../src/alertmanager/parse-webhook.js';
import type { QueuedWebhook } from '../../src/alertmanager/webhook-payload.js';
import { alertIntakeKeys, frameIntakeItem } from '../../src/jobs/alert-intake.js';
import { createAlertIntakePusher } from '../../src/jobs/create-alert-intake-pusher.js';
import { createCommandRedis, createRedisConnection } from '../../src/jobs/create-redis-connection.js';
import { alertsJobId } from '../../src/jobs/enqueue-alertmanager.js';
import { ALERTS_QUEUE, NOTIFY_QUEUE, queuePrefix } from '../../src/jobs/queue-names.js';
import { startAlertIntakeForwarder, type AlertIntakeForwarder } from '../../src/jobs/start-alert-intake-forwarder.js';
import { BULLMQ_PREFIX } from '../../src/store/redis-prefix.js';
import { captureLogs } from '../support/capture-logs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort } from '../support/free-port.js';
import { spawnServe } from '../support/spawn-serve.js';
import { startRedisCluster, type RedisClusterTopology } from '../support/start-redis-cluster.js';
import { recordFigure } from './figures.js';
import {
  READY_AFTER_FAILOVER_MS,
  alertThreadsThroughFailover,
  approvalThroughFailover,
  parentInFlightThroughFailover,
  queuedScansThroughFailover,
  voteAndExecutionThroughFailover,
  type FailoverTopology,
} from './redis-failover-cases.js';
import { firingAlert, webhookBody } from '../support/alertmanager-webhook.js';

/**
 * The bot on a real Redis Cluster (three masters, each with a replica, made with `redis-cli --cluster
 * create` from Debian's packages): configured only by REDIS_CLUSTER_NODES / REDIS_PASSWORD, every
 * Lua script and transaction finds its keys in one slot (no CROSSSLOT), the keys spread over the
 * masters (the alert intake's push, batch and give-back included), and scans, alert threads, a two-person
 * approval and its execution go on through a kill -9
 * of the master holding the keys in use (its replica is promoted; ioredis follows the new slot map).
 * The failover cases are the Sentinel suite's too (redis-failover-cases.ts); each runs on a cluster of
 * its own, since a kill leaves a master without a replica.
 */
let slack: FakeSlackApi;

beforeAll(async () => {
  slack = await startFakeSlackApi({ validToken: 'xoxb-cluster' });
});

afterAll(async () => {
  await slack?.close();
});

/** Run a failover case on a fresh cluster with replicas. */
async function onFreshCluster(run: (topo: FailoverTopology, cluster: RedisClusterTopology) => Promise<void>) {
  const cluster = await startRedisCluster({ replicas: true });
  try {
    await run({ suite: 'redis-cluster', ...cluster }, cluster);
  } finally {
    await cluster.stop();
  }
}

describe('Redis Cluster topology, in-process workers', () => {
  it("scans and alert threads on the cluster, keys spread over the masters, on through a kill -9 of the notify queue's master", async () => {
    await onFreshCluster((topo, cluster) =>
      alertThreadsThroughFailover(
        topo,
        { api: slack, token: 'xoxb-cluster' },
        {
          afterPosted: async (c) => {
            expect(readEnvOptions(cluster.env).redis.clusterNodes).toHaveLength(6);
            // Queues and records landed on more than one master.
            const sizes = await Promise.all((c as unknown as Cluster).nodes('master').map((m) => m.dbsize()));
            expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(1);
          },
        },
      ),
    );
  }, 120_000);

  it("the parent in flight at Slack when the notify queue's master dies: every parent posted exactly once", async () => {
    await onFreshCluster((topo) => parentInFlightThroughFailover(topo, { api: slack, token: 'xoxb-cluster' }));
  }, 120_000);

  it("scans queued while the scan worker is paused when the scan queue's master dies: each runs once after the failover, its report stored", async () => {
    await onFreshCluster((topo) => queuedScansThroughFailover(topo));
  }, 120_000);
});

describe('Redis Cluster topology, the alert intake', () => {
  it("serve's push, the forwarder's moves and batch, and the give-back of a dead forwarder's webhooks each stay in one slot", async () => {
    const topo = await startRedisCluster();
    const env = readEnvOptions(topo.env).redis;
    const connection = createRedisConnection(env);
    const commands = createCommandRedis(env);
    const queue = new Queue(ALERTS_QUEUE, { connection, prefix: queuePrefix('cluster-intake', ALERTS_QUEUE) });
    const logs = captureLogs('info');
    const keys = alertIntakeKeys('cluster-intake:');
    const webhook = (group: string): QueuedWebhook => ({
      body: webhookBody(group, [firingAlert('ab', {})]),
      receivedAt: '2026-11-28T01:00:01.000Z',
      maxAlerts: 10,
    });
    let forwarder: AlertIntakeForwarder | undefined;
    try {
      const push = createAlertIntakePusher(commands, { keyPrefix: 'cluster-intake:' });
      const pushed = ['a', 'b'].map((g) => webhook(`{}:{g="${g}"}`));
      await Promise.all(pushed.map((q) => push(parseWebhook(q.body, q), q)));
      // A forwarder that died holding a webhook.
      const held = webhook('{}:{g="held"}');
      await connection.sadd(keys.forwarders, 'gone');
      await connection.lpush(keys.forwarding('gone'), frameIntakeItem(held));
      forwarder = startAlertIntakeForwarder({
        redis: connection,
        queue,
        keyPrefix: 'cluster-intake:',
        log: logs.log,
        graceMs: 600,
      });
      const ids = [...pushed, held].map((q) => alertsJobId(parseWebhook(q.body, q))).sort();
      for (let i = 0; (await queue.getJobCountByTypes('waiting')) < 3; i++) {
        if (i > 200) throw new Error(`the forwarder did not queue 3 jobs within 10 s: ${logs.messages.join(' | ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await queue.getJobs(['waiting'])).map((j) => j.id).sort()).toEqual(ids);
      expect(logs.messages.filter((m) => !/stopped answering/.test(m))).toEqual([]);
      expect(logs.messages).toHaveLength(1);
      await forwarder.stop();
      expect(await connection.smembers(keys.forwarders)).toEqual([]);
    } finally {
      await forwarder?.stop().catch(() => undefined);
      await queue.close();
      commands.disconnect();
      connection.disconnect();
      await topo.stop();
    }
  }, 120_000);
});

describe('Redis Cluster topology, a connection re-opened while a master is failing over', () => {
  it("connect() settles once the cluster is ready again, though its own ready check saw cluster_state:fail (what BullMQ's blocking connections await)", async () => {
    const topo = await startRedisCluster({ replicas: true });
    // The connection BullMQ's workers and queues are given, made the way the bot makes it.
    const c = createRedisConnection(readEnvOptions(topo.env).redis) as unknown as Cluster;
    try {
      await c.set('{failover}:before', '1');
      const key = `${queuePrefix(BULLMQ_PREFIX, NOTIFY_QUEUE)}:x`;
      const oldPort = await topo.masterPortOf(key);
      const killed = topo.killMasterOf(key);
      // Until the replica is promoted the surviving nodes answer cluster_state:fail, so a ready check
      // made now fails and ioredis retries by itself.
      const other = topo.nodes
        .split(',')
        .map((n) => Number(n.split(':')[1]))
        .find((p) => p !== oldPort)!;
      for (let i = 0; !(await topo.clusterInfo(other)).includes('cluster_state:fail'); i++) {
        if (i > 600) throw new Error('no surviving node said cluster_state:fail within 30 s of the kill');
        await new Promise((r) => setTimeout(r, 50));
      }
      // BullMQ's recovery of a blocking connection: disconnect, wait for the end, connect again.
      await new Promise<void>((resolve) => {
        c.once('end', () => resolve());
        c.disconnect();
      });
      const connected = c.connect().then(
        () => 'resolved',
        (err: Error) => `rejected: ${err.message}`,
      );
      const { failoverMs } = await killed;
      const settled = await Promise.race([
        connected,
        new Promise((r) => setTimeout(() => r('still pending 10 s after the failover'), READY_AFTER_FAILOVER_MS)),
      ]);
      recordFigure({
        suite: 'redis-cluster',
        case: 'connect() made while cluster_state:fail (replica not yet promoted): never settled',
        tried: 1,
        bad: settled === 'resolved' ? 0 : 1,
        note: `failover ${failoverMs} ms`,
      });
      expect(settled).toBe('resolved');
      expect(await c.get('{failover}:before')).toBe('1');
      // Ended for good: node connections closing late do not move the client back to 'close'.
      const nodes = c.nodes('all');
      await new Promise<void>((resolve) => {
        c.once('end', () => resolve());
        c.disconnect();
      });
      await Promise.all(
        nodes.map((n) => (n.status === 'end' ? Promise.resolve() : new Promise<void>((r) => n.once('end', () => r())))),
      );
      await new Promise((r) => setImmediate(r));
      expect(c.status).toBe('end');
    } finally {
      c.disconnect();
      await topo.stop();
    }
  }, 120_000);
});

describe('Redis Cluster topology, the built serve', () => {
  it("a two-person approval and its execution on the cluster, the approvals' master killed -9 after the first vote: counted once, run once", async () => {
    await onFreshCluster((topo) => approvalThroughFailover(topo));
  }, 120_000);

  it("the vote acknowledged survives the approvals' master; the fix in flight when the remediate queue's master dies runs once", async () => {
    await onFreshCluster((topo) => voteAndExecutionThroughFailover(topo));
  }, 150_000);
});

describe('Redis Cluster unreachable (the built serve)', () => {
  it('no node answers: /readyz 503, one warning line naming the nodes without the password, no stack traces; SIGTERM exits within 10 s', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-cluster-down-'));
    const configFile = path.join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      `clusters:\n  - name: prod\n    dump: ${JSON.stringify(path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'))}\n    slack: { channels: [C0DOWN] }\nscan: { intervalSeconds: 3600 }\n`,
    );
    const nodes = `127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}`;
    const serve = await spawnServe({
      config: configFile,
      env: {
        SLACK_BOT_TOKEN: 'xoxb-cluster',
        SLACK_SIGNING_SECRET: 'cluster-down-secret',
        SLACK_API_URL: slack.apiUrl,
        REDIS_CLUSTER_NODES: nodes,
        REDIS_PASSWORD: 'cluster-down-pw',
        LOG_LEVEL: 'error',
      },
    });
    const out = () => serve.stdout + serve.stderr;
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 503; i++) {
        status = (await fetch(`http://127.0.0.1:${serve.port}/readyz`, { signal: AbortSignal.timeout(5000) })).status;
        if (status !== 503) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(503);
      for (let i = 0; i < 100 && !out().includes('Redis unreachable'); i++)
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 3000));
      const lines = out()
        .split('\n')
        .filter((l) => l.includes('Redis unreachable'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`redis cluster via ${nodes}`);
      expect(out()).not.toContain('cluster-down-pw');
      expect(out()).not.toContain('Unhandled error event');
      expect(out()).not.toMatch(/\n\s+at /);
      const started = Date.now();
      serve.child.kill('SIGTERM');
      const code = await Promise.race([
        serve.exit,
        new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000).unref()),
      ]);
      expect(code).not.toBe('hung');
      recordFigure({
        suite: 'redis-cluster',
        case: 'no cluster node reachable: outage lines in 3 s, stack traces, SIGTERM past 10 s',
        tried: 1,
        bad: lines.length === 1 && code !== 'hung' ? 0 : 1,
        note: `exit after SIGTERM ${Date.now() - started} ms`,
      });
    } finally {
      await serve.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
