import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { spawnWorker, type SpawnedWorker } from '../support/spawn-worker.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { notReadyNode, waitFor, watchedOnce as watchedOnceAt } from '../support/watch-probes.js';

/**
 * Fleet mode with two real `k8s-health worker` processes (dist/), four live clusters each
 * behind its own fake API server, real Redis and the fake Slack Web API:
 * - the leases split the clusters 2/2 and every cluster is watched by exactly one process (the fake
 *   API's open watches: one per kind);
 * - a watch event alerts without the periodic scan (scan.intervalSeconds is an hour);
 * - kill -9 of the process owning the alerting cluster: the other takes its leases over (their TTL is
 *   4 s), watches each of its clusters once, continues the same Slack thread, and posts no duplicate.
 */
const HEALTHY = path.resolve('examples/scenarios/benign-healthy');
const CLUSTERS = ['c1', 'c2', 'c3', 'c4'];
const PREFIX = 'k8s-health:';

describe('fleet mode: two worker processes, leases, kill -9', () => {
  let redis: RedisServer;
  let reader: Redis;
  let slack: FakeSlackApi;
  let dir: string;
  let configFile: string;
  const apis = new Map<string, FakeKubeApi>();
  const workers: SpawnedWorker[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    reader = new Redis(redis.url);
    slack = await startFakeSlackApi();
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-fleet-'));
    let clusters = '';
    for (const name of CLUSTERS) {
      const api = await startFakeKubeApi({ dir: HEALTHY });
      apis.set(name, api);
      clusters += `  - name: ${name}\n    workload: { kubeconfig: ${JSON.stringify(await writeTestKubeConfig(api.url, name))} }\n    slack: { alertChannel: C0ALERTS }\n`;
    }
    configFile = path.join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      `clusters:\n${clusters}scan: { intervalSeconds: 3600, leaseSeconds: 4, debounceSeconds: 1 }\nthresholds: { notReadyGraceSeconds: 0 }\n`,
    );
  });

  afterAll(async () => {
    for (const w of workers) await w.kill();
    reader.disconnect();
    for (const api of apis.values()) await api.close();
    await slack.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    REDIS_URL: redis.url,
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_API_URL: slack.apiUrl,
    LOG_LEVEL: 'info',
  });
  /** Lease owner of each cluster, as the pid of its worker process (worker ids are host-pid-random). */
  const owners = async () => {
    const ids = await reader.mget(...CLUSTERS.map((c) => `{k8s-health:lease}:lease:${c}`));
    return Object.fromEntries(CLUSTERS.map((c, i) => [c, ids[i] ? Number(ids[i]!.split('-').at(-2)) : undefined]));
  };
  const until = <T>(
    what: string,
    probe: () => Promise<T | undefined | false> | T | undefined | false,
    timeoutMs = 40_000,
  ): Promise<T> =>
    waitFor(what, probe, {
      timeoutMs,
      context: () => workers.map((w) => w.output.slice(-3000)).join('\n----\n'),
    });
  const watchedOnce = (name: string) => watchedOnceAt(apis.get(name)!);
  const reportAt = async (name: string) => {
    const raw = await reader.get(`${PREFIX}report:${name}`);
    return raw ? (JSON.parse(raw) as { report: { generatedAt: string } }).report.generatedAt : undefined;
  };
  const parents = () =>
    slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS' && !c.body.thread_ts);

  it('each cluster has one owner and one watcher; an event alerts; kill -9 moves the clusters with no duplicate alert and the same thread', async () => {
    workers.push(await spawnWorker({ config: configFile, env: env() }));
    workers.push(await spawnWorker({ config: configFile, env: env() }));
    const [a, b] = workers as [SpawnedWorker, SpawnedWorker];
    const pids = [a.child.pid, b.child.pid];

    // Balanced: two clusters each, every cluster scanned once and watched by one process.
    const split = await until('the leases split 2/2', async () => {
      const o = await owners();
      const counts = pids.map((p) => Object.values(o).filter((x) => x === p).length);
      return counts[0] === 2 && counts[1] === 2 ? o : undefined;
    });
    await until('a first report of every cluster', async () =>
      (await Promise.all(CLUSTERS.map(reportAt))).every(Boolean),
    );
    await until('every cluster watched', () => CLUSTERS.every(watchedOnce));
    const kinds = apis.get('c1')!.openWatches();
    for (const name of CLUSTERS) expect(apis.get(name)!.openWatches()).toEqual(kinds);
    expect(parents()).toHaveLength(0); // healthy clusters: nothing to say

    // A watch event alerts: no periodic scan comes for an hour.
    const victim = CLUSTERS.find((c) => split[c] === a.child.pid)!;
    const api = apis.get(victim)!;
    const first = notReadyNode(api, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.');
    api.emit('MODIFIED', first);
    const parent = await until('the alert of the NotReady node', () =>
      parents().find((c) => JSON.stringify(c.body.blocks).includes(first.metadata.name)),
    );
    expect(parent).toBeDefined();
    const parentTs = [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/'))!.split('/')[1]!;

    // kill -9 the owner of that cluster: b takes its leases within their TTL and watches them once.
    await a.kill();
    const moved = await until('every lease owned by the survivor', async () => {
      const o = await owners();
      return CLUSTERS.every((c) => o[c] === b.child.pid) ? o : undefined;
    });
    expect(Object.values(moved)).toEqual(CLUSTERS.map(() => b.child.pid));
    await until('every cluster watched again, once', () =>
      CLUSTERS.every((c) => JSON.stringify(apis.get(c)!.openWatches()) === JSON.stringify(kinds)),
    );
    for (const name of CLUSTERS) expect(apis.get(name)!.openWatches()).toEqual(kinds);

    // The survivor scanned the victim on acquiring it (same incident: no new post); new evidence on
    // the same node is a reply in the same thread.
    api.emit(
      'MODIFIED',
      notReadyNode(api, 'False', 'KubeletNotReady', 'PLEG is not healthy: pleg was last seen active 3m0s ago'),
    );
    await until('the reply with the new evidence in the same thread', () =>
      slack.callsTo('chat.postMessage').find((c) => c.body.thread_ts === parentTs),
    );
    expect(parents()).toHaveLength(1);
    expect(b.output).toMatch(/lease: clusters acquired/);
  }, 240_000);
});
