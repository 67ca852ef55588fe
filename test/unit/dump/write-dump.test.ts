import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DumpError } from '../../../src/cluster/dump/dump-error.js';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { KINDS } from '../../../src/cluster/kinds.js';
import { createEmptySnapshot, type KindCoverage, type Snapshot } from '../../../src/cluster/snapshot.js';
import { writeDump } from '../../../src/cluster/dump/write-dump.js';
import { fixtureDir } from './fixture-dir.js';

let tmp: string;
let n = 0;
const freshDir = () => path.join(tmp, `out-${++n}`);
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'write-dump-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('writeDump → loadDump round trip', () => {
  for (const fixture of [
    'cluster-info-dump-kindless-items',
    'kubectl-get-yaml-multidoc-and-lists',
    'workload-management-split',
    'etcd-3.4-quorum-lost',
    'etcd-nospace-alarm',
    'one-file-unreadable',
  ]) {
    it(`is exact for ${fixture}`, async () => {
      const original = await loadDump(fixtureDir(fixture));
      const out = freshDir();
      await writeDump(original, out);
      expect(await loadDump(out)).toStrictEqual(original);
    });
  }

  it('is exact for a live snapshot except origin and etcd source (where it is read from)', async () => {
    const live = liveSnapshot();
    const out = freshDir();
    await writeDump(live, out);
    const back = await loadDump(out);
    expect(back).toStrictEqual({ ...live, origin: 'dump', etcd: { ...live.etcd, source: 'etcdctl' } });
  });

  it('keeps an unreachable API server and partial entries even with no objects at all', async () => {
    const s = createEmptySnapshot('down', '2025-05-05T05:05:05.000Z', 'dump');
    s.apiserver = { reachable: false, checks: [], error: 'connect ECONNREFUSED 10.0.0.10:6443' };
    s.partial = [{ source: 'list nodes', error: 'connect ECONNREFUSED 10.0.0.10:6443' }];
    s.coverage = coverage(() => ({ state: 'failed', why: 'workload API server: connect ECONNREFUSED 10.0.0.10:6443' }));
    const out = freshDir();
    await writeDump(s, out);
    expect(await loadDump(out)).toStrictEqual(s);
  });

  it('keeps which kinds failed although it writes them as empty lists (green means checked)', async () => {
    const s = liveSnapshot();
    delete s.coverage; // an older snapshot: the reader derives coverage from the lists and partial entries
    const out = freshDir();
    await writeDump(s, out);
    const back = await loadDump(out);
    expect(back.coverage?.['TanzuKubernetesCluster']).toStrictEqual({ state: 'failed', why: 'forbidden' });
    expect(back.coverage?.['ValidatingWebhookConfiguration']).toStrictEqual({ state: 'read' });
  });

  it('keeps an unknown capture time unknown (never the time it was written)', async () => {
    const s = liveSnapshot();
    s.collectedAt = '';
    s.collectedAtFrom = 'unknown';
    s.events = [];
    const out = freshDir();
    await writeDump(s, out);
    const back = await loadDump(out);
    expect([back.collectedAt, back.collectedAtFrom]).toStrictEqual(['', 'unknown']);
  });
});

describe('writeDump files', () => {
  it('writes etcdctl JSON with bare uint64 ids, management events under management/, and meta.json', async () => {
    const out = freshDir();
    await writeDump(await loadDump(fixtureDir('workload-management-split')), out);
    const members = await readFile(path.join(out, 'etcd', 'member-list.json'), 'utf8');
    expect(members).toContain('"ID":3319814642761637952,');
    expect(members).not.toContain('"3319814642761637952"');
    expect(members).not.toContain('isLearner');
    const status = await readFile(path.join(out, 'etcd', 'endpoint-status.json'), 'utf8');
    expect(status).toContain('"leader":3319814642761637952');
    const mgmtEvents = JSON.parse(await readFile(path.join(out, 'management', 'events.json'), 'utf8'));
    expect(mgmtEvents.items.map((e: { reason: string }) => e.reason)).toStrictEqual(['ControlPlaneUnhealthy']);
    const meta = JSON.parse(await readFile(path.join(out, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({
      cluster: 'prod-east',
      collectedAt: '2025-03-01T12:00:00Z',
      apiserver: { reachable: true, ready: false },
    });
    expect(await readdir(path.join(out, 'workload'))).toContain('statefulsets.json');
  });
});

describe('writeDump target directory', () => {
  it('overwrites a previous dump and drops etcd files the new snapshot does not have', async () => {
    const out = freshDir();
    await writeDump(await loadDump(fixtureDir('workload-management-split')), out);
    const next = await loadDump(fixtureDir('cluster-info-dump-kindless-items'));
    await writeDump(next, out);
    expect(await loadDump(out)).toStrictEqual(next);
    expect(await readdir(out)).not.toContain('etcd');
  });

  it('refuses a non-empty directory that is not a previous dump and leaves user files alone', async () => {
    const out = freshDir();
    await mkdir(out);
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    await expect(writeDump(liveSnapshot(), out)).rejects.toThrow(
      `refusing to write dump into ${out}: it is not empty and not a previous dump (found no meta.json); choose a new or empty directory`,
    );
    await expect(writeDump(liveSnapshot(), out)).rejects.toBeInstanceOf(DumpError);
    expect(await readdir(out)).toStrictEqual(['notes.txt']);
  });

  it('refuses a previous dump that holds a file it did not write', async () => {
    const out = freshDir();
    await writeDump(liveSnapshot(), out);
    await writeFile(path.join(out, 'workload', 'extra-pods.yaml'), 'kind: Pod\n');
    await expect(writeDump(liveSnapshot(), out)).rejects.toThrow(/found workload\/extra-pods\.yaml/);
    expect(await readFile(path.join(out, 'workload', 'extra-pods.yaml'), 'utf8')).toBe('kind: Pod\n');
  });

  it('refuses a path that is a file', async () => {
    const file = path.join(tmp, 'plain-file');
    await writeFile(file, 'x');
    await expect(writeDump(liveSnapshot(), file)).rejects.toThrow(
      `cannot write dump to ${file}: it exists and is not a directory`,
    );
  });
});

/** A snapshot as the live collector would build it: canonical order, alarms not visible in status errors. */
function liveSnapshot(): Snapshot {
  const s = createEmptySnapshot('prod-live', '2025-06-01T10:00:00.000Z', 'live');
  s.nodes = [
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', uid: 'u1', labels: { a: 'b' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    },
  ];
  s.pods = [
    {
      namespace: 'default',
      name: 'web-0',
      nodeName: 'n1',
      phase: 'Running',
      pvcNames: ['data-web-0'],
      conditions: [{ type: 'Ready', status: 'True' }],
      containers: [
        { name: 'web', ready: true, restartCount: 2, lastTerminated: { reason: 'OOMKilled', exitCode: 137 } },
      ],
      memoryRequestBytes: 268435456,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true }],
    },
  ];
  s.events = [
    {
      origin: 'workload',
      namespace: 'default',
      name: 'web-0.1',
      reason: 'FailedAttachVolume',
      count: 3,
      firstTimestamp: '2025-06-01T09:00:00Z',
      involvedObject: { kind: 'Pod', name: 'web-0' },
    },
    {
      origin: 'management',
      namespace: 'ns-prod',
      name: 'm.1',
      reason: 'MachineDeleting',
      count: 1,
      lastTimestamp: '2025-06-01T09:30:00Z',
      involvedObject: {},
    },
  ];
  s.capi.machines = [
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: { name: 'm', namespace: 'ns-prod' },
      status: { phase: 'Deleting' },
    },
  ];
  // The blocker kinds: a budget as read, and a CRD as its compact projection (no schemas).
  s.podDisruptionBudgets = [
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default', uid: 'u-pdb' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'db' } } },
      status: { disruptionsAllowed: 0 },
    },
  ];
  s.customResourceDefinitions = [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'policies.kyverno.io', uid: 'u-crd', generation: 2 },
      spec: { versions: [{ name: 'v1', served: true, storage: true }], group: 'kyverno.io' },
    },
  ];
  s.etcd = {
    source: 'live',
    members: [
      {
        id: '18249187646912138824',
        name: 'cp-1',
        peerURLs: ['https://10.0.0.1:2380'],
        clientURLs: ['https://10.0.0.1:2379'],
        isLearner: false,
      },
    ],
    endpoints: [
      {
        endpoint: 'https://10.0.0.1:2379',
        memberId: '18249187646912138824',
        leader: '18249187646912138824',
        raftTerm: '4',
        dbSize: 1024,
        isLearner: false,
        errors: [],
      },
    ],
    health: [{ endpoint: 'https://10.0.0.1:2379', health: true, took: '2ms' }],
    alarms: [{ memberId: '18249187646912138824', alarm: 'CORRUPT' }],
  };
  s.apiserver = { reachable: true, ready: true, checks: [{ name: 'etcd', ok: true }] };
  s.partial = [{ source: 'list tanzukubernetesclusters.run.tanzu.vmware.com', error: 'forbidden' }];
  s.coverage = coverage((kind) =>
    kind === 'TanzuKubernetesCluster' ? { state: 'failed', why: 'forbidden' } : { state: 'read' },
  );
  return s;
}

/** Coverage of every kind, as collect-snapshot.ts records it. */
function coverage(of: (kind: string) => KindCoverage): Record<string, KindCoverage> {
  return Object.fromEntries(KINDS.map((k) => [k.kind, of(k.kind)]));
}
