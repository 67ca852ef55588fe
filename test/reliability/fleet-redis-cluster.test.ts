import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { startFleet, type Fleet } from '../../src/compose/start-fleet.js';
import { configSchema } from '../../src/config/config-schema.js';
import { REDIS_PREFIX, taggedKey } from '../../src/store/redis-prefix.js';
import { scanKeys } from '../../src/store/scan-keys.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { capiCluster } from '../support/fleet-objects.js';
import { spawnWorker, type SpawnedWorker } from '../support/spawn-worker.js';
import { startRedisCluster, type RedisClusterTopology } from '../support/start-redis-cluster.js';
import { recordFigure } from './figures.js';
import { notReadyNode, waitFor, watchedOnce as watchedOnceAt } from '../support/watch-probes.js';

/**
 * Fleet mode on a real Redis Cluster (three masters, each with a replica, from Debian's redis-server,
 * made with `redis-cli --cluster create`), configured only by REDIS_CLUSTER_NODES / REDIS_PASSWORD: two
 * built `k8s-health worker` processes, four live clusters each behind its own fake API server, a fleet
 * discovered from a fake management cluster, the fake Slack Web API.
 * - Leases: the claim, renew and release scripts and the heartbeats run on the cluster (their keys share
 *   one hash tag): the clusters split between the workers, each watched by one process;
 * - fleet incidents: the same fault on two clusters owned by different workers is ONE thread — the
 *   record's optimistic transaction (WATCH/MULTI on a connection of its own) runs on the master of its
 *   key while both workers' scans and posters race on it;
 * - the directory's pub/sub: a follower (as `serve --no-workers` is) that never re-reads the directory
 *   by itself sees a Cluster added and one deleted: PUBLISH and SUBSCRIBE go to whichever node each client
 *   picks, and the cluster bus hands every published message to every node;
 * - kill -9 of a worker: the survivor re-claims its leases, and new evidence is a reply in the same fleet thread;
 * - kill -9 of the master holding the leases (its replica is promoted): every cluster again has one owner
 *   and one watcher, a third cluster with the same fault joins the fleet thread, and the follower still
 *   sees directory changes (its subscriber sits on whichever node the client picked, the killed one or not).
 */
const HEALTHY = path.resolve('examples/scenarios/benign-healthy');
const CLUSTERS = ['c1', 'c2', 'c3', 'c4'];

describe('fleet mode on a Redis Cluster: leases, fleet incidents, the directory, kill -9', () => {
  let topo: RedisClusterTopology;
  let reader: Redis;
  let slack: FakeSlackApi;
  let mgmt: FakeKubeApi;
  let dir: string;
  let configFile: string;
  let follower: Fleet | undefined;
  let mgmtKubeconfig: string;
  const apis = new Map<string, FakeKubeApi>();
  const workers: SpawnedWorker[] = [];

  beforeAll(async () => {
    topo = await startRedisCluster({ replicas: true });
    reader = topo.client();
    slack = await startFakeSlackApi();
    mgmt = await startFakeKubeApi({ accessKinds: true, objects: [capiCluster('team-a', 'web')] });
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-fleet-cluster-'));
    mgmtKubeconfig = await writeTestKubeConfig(mgmt.url, 'mgmt');
    let clusters = '';
    for (const name of CLUSTERS) {
      const api = await startFakeKubeApi({ dir: HEALTHY });
      apis.set(name, api);
      clusters += `  - name: ${name}\n    workload: { kubeconfig: ${JSON.stringify(await writeTestKubeConfig(api.url, name))} }\n    slack: { alertChannel: C0ALERTS }\n`;
    }
    configFile = path.join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      [
        `clusters:\n${clusters.trimEnd()}`,
        'fleets:',
        '  - name: lab',
        `    management: { kubeconfig: ${JSON.stringify(mgmtKubeconfig)} }`,
        '    slack: { alertChannel: C0FLEET }',
        'scan: { intervalSeconds: 3600, leaseSeconds: 4, debounceSeconds: 1, correlateSeconds: 60 }',
        'thresholds: { notReadyGraceSeconds: 0 }',
        '',
      ].join('\n'),
    );
  }, 120_000);

  afterAll(async () => {
    await follower?.stop();
    for (const w of workers) await w.kill();
    reader?.disconnect();
    for (const api of apis.values()) await api.close();
    await mgmt?.close();
    await slack?.close();
    await topo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    ...topo.env,
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_API_URL: slack.apiUrl,
    LOG_LEVEL: 'info',
  });
  const leaseKey = (c: string) => taggedKey(REDIS_PREFIX, 'lease', `lease:${c}`);
  /** Lease owner of each cluster, as the pid of its worker process (worker ids are host-pid-random). */
  const owners = async (names: readonly string[]) => {
    const ids = await reader.mget(...names.map(leaseKey));
    return Object.fromEntries(names.map((c, i) => [c, ids[i] ? Number(ids[i]!.split('-').at(-2)) : undefined]));
  };
  const until = <T>(
    what: string,
    probe: () => Promise<T | undefined | false> | T | undefined | false,
    timeoutMs = 60_000,
  ): Promise<T> =>
    waitFor(what, probe, {
      timeoutMs,
      context: () => workers.map((w) => w.output.slice(-3000)).join('\n----\n'),
    });
  const watchedOnce = (name: string) => watchedOnceAt(apis.get(name)!);
  const reportAt = async (name: string) => reader.get(`${REDIS_PREFIX}report:${name}`);
  const parents = () =>
    slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS' && !c.body.thread_ts);
  const shown = (ts: string) => JSON.stringify(slack.messages.get(`C0ALERTS/${ts}`)?.blocks ?? []);

  it('leases split and move on kill -9, one fleet thread for two workers, the directory followed through pub/sub', async () => {
    workers.push(await spawnWorker({ config: configFile, env: env() }));
    workers.push(await spawnWorker({ config: configFile, env: env() }));
    const [a, b] = workers as [SpawnedWorker, SpawnedWorker];
    const pids = [a.child.pid, b.child.pid];

    // The lease scripts run on the cluster: every cluster has one owner among the two, both hold some.
    const split = () =>
      until('every live cluster leased, both workers owning some', async () => {
        const o = await owners(CLUSTERS);
        const counts = pids.map((p) => Object.values(o).filter((x) => x === p).length);
        return Object.values(o).every((x) => x !== undefined && pids.includes(x)) && counts.every((n) => n > 0)
          ? o
          : undefined;
      });
    await split();
    const heartbeats = await reader.zrange(taggedKey(REDIS_PREFIX, 'lease', 'lease-workers'), 0, -1);
    expect(heartbeats.map((id) => Number(id.split('-').at(-2))).sort()).toEqual([...pids].sort());
    await until('a first report of every cluster', async () =>
      (await Promise.all(CLUSTERS.map(reportAt))).every(Boolean),
    );
    await until('every cluster watched by one process', () => CLUSTERS.every(watchedOnce));
    expect(parents()).toHaveLength(0);

    // The directory, followed without re-reading it by itself: only its change channel can tell.
    const followed: string[][] = [];
    follower = startFleet({
      config: configSchema.parse({
        fleets: [{ name: 'lab', management: { kubeconfig: mgmtKubeconfig }, slack: { alertChannel: 'C0FLEET' } }],
      }),
      redisUrl: {
        url: '',
        clusterNodes: topo.env.REDIS_CLUSTER_NODES!.split(',').map(hostPort),
        password: topo.password,
      },
      mode: 'follow',
      relistMs: 3_600_000,
    });
    const set = follower.clusterSet;
    set.onChange(() => followed.push(set.names()));
    await follower.ready;
    expect(set.names()).toEqual(['web']);
    let t = Date.now();
    mgmt.emit('ADDED', capiCluster('team-b', 'api'));
    await until('the follower sees the added cluster', () => set.names().includes('api'));
    const addedMs = Date.now() - t;
    t = Date.now();
    mgmt.emit('DELETED', mgmt.find('Cluster', 'web', 'team-a')!);
    await until('the follower sees the deleted cluster leave', () => !set.names().includes('web'));
    const removedMs = Date.now() - t;
    expect(set.names()).toEqual(['api']);

    // The same fault on a cluster of each worker, at once: one thread, its parent listing both. (The
    // discovered clusters took leases too, so the split is read again once every cluster is watched once.)
    await until('every cluster watched by one process after the directory changed', () => CLUSTERS.every(watchedOnce));
    const leased = await split();
    const victimA = CLUSTERS.find((c) => leased[c] === a.child.pid)!;
    const victimB = CLUSTERS.find((c) => leased[c] === b.child.pid)!;
    t = Date.now();
    for (const v of [victimA, victimB]) {
      const api = apis.get(v)!;
      api.emit('MODIFIED', notReadyNode(api, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'));
    }
    const ts = await until('the fleet parent naming both clusters', () => {
      const p = parents()[0];
      const key = p && [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/'));
      const t = key?.split('/')[1];
      return t &&
        /Fleet incident: node\.not-ready on 2 clusters/.test(shown(t)) &&
        [victimA, victimB].every((v) => shown(t).includes(`*${v}*`))
        ? t
        : undefined;
    });
    const fleetThreadMs = Date.now() - t;
    const records = await scanKeys(reader, `${REDIS_PREFIX}fleet-incident:*`);
    expect(records).toHaveLength(1);
    const record = JSON.parse((await reader.get(records[0]!))!) as { members: { cluster: string }[] };
    expect(record.members.map((m) => m.cluster).sort()).toEqual([victimA, victimB].sort());
    expect(parents()).toHaveLength(1);

    // kill -9 worker a: b re-claims its leases within their TTL and watches each cluster once.
    t = Date.now();
    await a.kill();
    await until('every lease owned by the survivor', async () =>
      Object.values(await owners(CLUSTERS)).every((x) => x === b.child.pid),
    );
    const failoverMs = Date.now() - t;
    await until('every cluster watched again, once', () => CLUSTERS.every(watchedOnce));
    await until("the killed worker's heartbeat gone", async () => {
      const ids = await reader.zrange(taggedKey(REDIS_PREFIX, 'lease', 'lease-workers'), 0, -1);
      return ids.length === 1 && Number(ids[0]!.split('-').at(-2)) === b.child.pid;
    });

    // New evidence on a's cluster, now b's: a reply in the same fleet thread, no new parent.
    const api = apis.get(victimA)!;
    api.emit(
      'MODIFIED',
      notReadyNode(api, 'False', 'KubeletNotReady', 'PLEG is not healthy: pleg was last seen active 3m0s ago'),
    );
    await until('the reply with the new evidence in the fleet thread', () =>
      slack
        .callsTo('chat.postMessage')
        .find((c) => c.body.thread_ts === ts && JSON.stringify(c.body.blocks).includes('PLEG is not healthy')),
    );
    expect(parents()).toHaveLength(1);
    expect(b.output).toMatch(/lease: clusters acquired/);
    for (const w of workers) expect(w.output).not.toMatch(/CROSSSLOT|MOVED|ERR /);
    recordFigure({
      suite: 'fleet-redis-cluster',
      case: 'two workers on a Redis Cluster: clusters unowned or watched twice, fleet threads opened twice, directory changes missed, after kill -9',
      tried: 1,
      note: `directory change seen by the follower ${addedMs} ms (added) / ${removedMs} ms (deleted); events → fleet parent naming both ${fleetThreadMs} ms; kill -9 → every lease re-claimed ${failoverMs} ms (lease 4 s)`,
      bad:
        (parents().length === 1 ? 0 : 1) +
        (record.members.length === 2 ? 0 : 1) +
        (CLUSTERS.every(watchedOnce) ? 0 : 1) +
        (set.names().join() === 'api' ? 0 : 1),
    });
  }, 240_000);

  it("the leases' master killed -9: one owner and one watcher per cluster again, the fleet thread grows, the directory still followed", async () => {
    const b = workers[1]!;
    workers.push(await spawnWorker({ config: configFile, env: env() }));
    const c = workers[2]!;
    const pids = [b.child.pid, c.child.pid];
    const settled = () =>
      until('every cluster owned by a live worker, both owning some, each watched once', async () => {
        const o = await owners(CLUSTERS);
        const counts = pids.map((p) => Object.values(o).filter((x) => x === p).length);
        return (
          Object.values(o).every((x) => x !== undefined && pids.includes(x)) &&
          counts.every((n) => n > 0) &&
          CLUSTERS.every(watchedOnce) &&
          o
        );
      });
    await settled();
    const lease = taggedKey(REDIS_PREFIX, 'lease', 'x');
    const { failoverMs } = await topo.killMasterOf(lease);
    const t = Date.now();
    await settled();
    const settledMs = Date.now() - t;

    // A third cluster with the same fault joins the fleet thread: one parent still, now naming three.
    const ts = [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/'))!.split('/')[1]!;
    const failing = (await scanKeys(reader, `${REDIS_PREFIX}fleet-incident:*`)).length;
    expect(failing).toBe(1);
    const third = CLUSTERS.find((n) => !shown(ts).includes(`*${n}*`))!;
    const api = apis.get(third)!;
    api.emit('MODIFIED', notReadyNode(api, 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.'));
    await until(
      'the fleet parent naming a third cluster',
      () => /Fleet incident: node\.not-ready on 3 clusters/.test(shown(ts)) && shown(ts).includes(`*${third}*`),
    );
    expect(parents()).toHaveLength(1);

    // The directory after the failover: a Cluster added is still seen by the follower.
    mgmt.emit('ADDED', capiCluster('team-c', 'db'));
    await until('the follower sees a cluster added after the failover', () =>
      follower!.clusterSet.names().includes('db'),
    );
    for (const w of workers) expect(w.output).not.toMatch(/CROSSSLOT/);
    recordFigure({
      suite: 'fleet-redis-cluster',
      case: "kill -9 of the leases' master under two workers: clusters unowned or watched twice, fleet threads opened twice, directory changes missed",
      tried: 1,
      note: `failover ${failoverMs} ms; one owner and one watcher per cluster again ${settledMs} ms after it`,
      bad: (parents().length === 1 ? 0 : 1) + (CLUSTERS.every(watchedOnce) ? 0 : 1),
    });
  }, 240_000);
});

function hostPort(s: string): { host: string; port: number } {
  const [host, port] = s.split(':');
  return { host: host!, port: Number(port) };
}
