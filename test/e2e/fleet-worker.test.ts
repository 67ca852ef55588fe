import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { capiCluster } from '../support/fleet-objects.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { spawnWorker, type SpawnedWorker } from '../support/spawn-worker.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/** A KubeadmControlPlane whose own etcd condition is False: a finding the management side alone shows. */
function kcp(namespace: string, name: string): KubeObject {
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: {
      name,
      namespace,
      uid: `uid-${name}`,
      labels: { 'cluster.x-k8s.io/cluster-name': name.replace(/-cp$/, '') },
    },
    spec: { replicas: 3, version: 'v1.31.4' },
    status: {
      replicas: 3,
      readyReplicas: 3,
      conditions: [
        {
          type: 'EtcdClusterHealthy',
          status: 'False',
          reason: 'EtcdClusterUnhealthy',
          message: 'etcd member m2 is unhealthy',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    },
  } as KubeObject;
}

/**
 * The built `k8s-health worker` (dist/) against one fake API server process holding a management
 * cluster: a Cluster object appears → the worker discovers it, lists it in the shared directory, scans
 * it from the management side and opens an alert thread; the Cluster is deleted → it leaves the
 * directory and its thread resolves as "cluster deleted".
 */
describe('k8s-health worker in fleet mode (spawned)', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  let mgmt: FakeKubeApi;
  let worker: SpawnedWorker;
  let config: string;
  const reader = () => new Redis(redis.url, { maxRetriesPerRequest: 1 });
  /** The directory entry of a cluster, once there (or undefined when it never came). */
  const entryOf = async (r: Redis, name: string, present = true) => {
    for (let i = 0; i < 300; i++) {
      const raw = await r.hget('k8s-health:fleet:clusters', name);
      if ((raw !== null) === present) return raw === null ? undefined : JSON.parse(raw);
      await new Promise((res) => setTimeout(res, 100));
    }
    return present ? undefined : 'still there';
  };

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
    mgmt = await startFakeKubeApi({
      accessKinds: true,
      objects: [capiCluster('team-a', 'web'), kcp('team-a', 'web-cp')],
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'fleet-worker-'));
    const mk = await writeTestKubeConfig(mgmt.url, 'mgmt');
    config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'fleets:',
        '  - name: lab',
        `    management: { kubeconfig: ${mk} }`,
        '    slack: { alertChannel: C0FLEET }',
        'scan: { intervalSeconds: 1 }',
      ].join('\n'),
    );
    worker = await spawnWorker({
      config,
      env: { REDIS_URL: redis.url, SLACK_BOT_TOKEN: 'xoxb-test-token', SLACK_API_URL: slack.apiUrl, LOG_LEVEL: 'info' },
    });
  });
  afterAll(async () => {
    await worker?.kill();
    await mgmt?.close();
    await slack?.close();
    await redis?.stop();
  });

  it('discovers the cluster, keeps it in the directory, scans it management-side only and alerts', async () => {
    const r = reader();
    try {
      expect(await entryOf(r, 'web')).toEqual({
        name: 'web',
        fleet: 'lab',
        namespace: 'team-a',
        clusterName: 'web',
        enrolled: false,
        credentials: 'enrolled',
      });
    } finally {
      r.disconnect();
    }
    const parent = await slack.waitFor(
      'the alert thread',
      () =>
        slack
          .callsTo('chat.postMessage')
          .find((c) => c.body.channel === 'C0FLEET' && /reports etcd unhealthy/.test(JSON.stringify(c.body))),
      30000,
    );
    expect(JSON.stringify(parent.body)).toContain('web');
    const listed = await runCliInProcess(['clusters', '-o', 'json', '--config', config], { REDIS_URL: redis.url });
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        name: 'web',
        fleet: 'lab',
        namespace: 'team-a',
        status: expect.stringMatching(/^(degraded|critical|unknown)$/),
        enrolled: false,
      },
    ]);
    expect(JSON.parse(listed.stdout)[0].status).not.toBe('healthy');
  });

  it('a Cluster object added later joins within seconds; a deleted one leaves and its thread resolves as "cluster deleted"', async () => {
    mgmt.emit('ADDED', capiCluster('team-b', 'api'));
    const r = reader();
    try {
      expect(await entryOf(r, 'api')).toMatchObject({ name: 'api', namespace: 'team-b' });
      mgmt.emit('DELETED', mgmt.find('Cluster', 'web', 'team-a')!);
      const reply = await slack.waitFor(
        'the "cluster deleted" reply',
        () =>
          slack
            .callsTo('chat.postMessage')
            .find(
              (c) => c.body.channel === 'C0FLEET' && c.body.thread_ts && /cluster deleted/.test(JSON.stringify(c.body)),
            ),
        30000,
      );
      expect(reply).toBeDefined();
      expect(await entryOf(r, 'web', false)).toBeUndefined();
      expect(worker.output).toMatch(/fleet: cluster deleted/);
    } finally {
      r.disconnect();
    }
  });
});
