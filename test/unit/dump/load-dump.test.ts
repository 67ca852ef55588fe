import { mkdtemp, rm, writeFile, mkdir, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DumpError } from '../../../src/cluster/dump/dump-error.js';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { readDumpObjects } from '../../../src/cluster/dump/read-dump-objects.js';
import { fixtureDir } from './fixture-dir.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'load-dump-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('loadDump: kubectl cluster-info dump layout', () => {
  it('reads typed lists with kind-less items, ignores logs.txt and kinds we do not read', async () => {
    const s = await loadDump(fixtureDir('cluster-info-dump-kindless-items'));
    expect(s.origin).toBe('dump');
    expect(s.cluster).toBe('cluster-info-dump-kindless-items');
    expect(Number.isNaN(Date.parse(s.collectedAt))).toBe(false);
    expect(s.nodes.map((n) => [n.kind, n.apiVersion, n.metadata.name])).toStrictEqual([
      ['Node', 'v1', 'cp-1'],
      ['Node', 'v1', 'worker-1'],
    ]);
    expect(s.nodes[0]?.metadata).not.toHaveProperty('managedFields');
    expect(s.pods.map((p) => `${p.namespace}/${p.name}`)).toStrictEqual([
      'kube-system/antrea-agent-x7k2p',
      'kube-system/etcd-cp-1',
    ]);
    expect(s.pods[0]?.containers[0]).toMatchObject({
      name: 'antrea-agent',
      restartCount: 3,
      waiting: { reason: 'ImagePullBackOff' },
    });
    expect(s.pods[1]?.memoryRequestBytes).toBe(100 * 2 ** 20);
    expect(s.events).toStrictEqual([
      {
        origin: 'workload',
        namespace: 'kube-system',
        name: 'antrea-agent-x7k2p.17f8',
        type: 'Warning',
        reason: 'Failed',
        message: 'Error: ImagePullBackOff',
        count: 7,
        firstTimestamp: '2024-11-17T10:25:00Z',
        lastTimestamp: '2024-11-17T10:31:00Z',
        involvedObject: { kind: 'Pod', namespace: 'kube-system', name: 'antrea-agent-x7k2p', uid: 'p-2' },
        source: 'kubelet',
      },
    ]);
    expect(s.services.map((o) => [o.kind, o.metadata.name])).toStrictEqual([['Service', 'kube-dns']]);
    expect(s.daemonSets.map((o) => [o.kind, o.apiVersion, o.metadata.name])).toStrictEqual([
      ['DaemonSet', 'apps/v1', 'antrea-agent'],
    ]);
    expect(s.partial).toStrictEqual([]);
    expect(s.etcd).toBeUndefined();
    expect(s.apiserver).toBeUndefined();
  });

  it('cluster name from opts wins over the directory name', async () => {
    const s = await loadDump(fixtureDir('cluster-info-dump-kindless-items'), { cluster: 'prod-west' });
    expect(s.cluster).toBe('prod-west');
  });
});

describe('loadDump: kubectl get -o yaml / -o json files', () => {
  it('reads multi-document YAML, List files and a self-managed cluster’s own CAPI objects', async () => {
    const s = await loadDump(fixtureDir('kubectl-get-yaml-multidoc-and-lists'));
    expect(s.nodes.map((n) => n.metadata.name)).toStrictEqual(['mgmt-cp-1']);
    expect(s.validatingWebhooks.map((w) => w.metadata.name)).toStrictEqual(['kyverno-resource-validating-webhook-cfg']);
    expect(s.deployments.map((d) => `${d.metadata.namespace}/${d.metadata.name}`)).toStrictEqual([
      'kube-system/coredns',
      'kyverno/kyverno-admission-controller',
    ]);
    expect(s.capi.machines.map((m) => m.metadata.name)).toStrictEqual(['prod-md-0-abc12']);
    expect(s.capi.machineDeployments.map((m) => m.spec.replicas)).toStrictEqual([3]);
    // events.k8s.io/v1 Event: regarding/note/series are read too.
    expect(s.events).toStrictEqual([
      expect.objectContaining({
        origin: 'workload',
        reason: 'MachineNotReady',
        message: 'waiting for the node to join',
        count: 4,
        involvedObject: { kind: 'Machine', namespace: 'tkg-system', name: 'prod-md-0-abc12' },
        source: 'cluster-api',
      }),
    ]);
    expect(s.partial).toStrictEqual([]);
  });
});

describe('loadDump: workload/ + management/ split', () => {
  it('places objects by cluster, reads meta.json, etcd/ and apiserver/readyz.txt', async () => {
    const s = await loadDump(fixtureDir('workload-management-split'));
    expect(s.cluster).toBe('prod-east');
    expect(s.collectedAt).toBe('2025-03-01T12:00:00Z');
    expect(s.nodes.map((n) => n.metadata.name)).toStrictEqual(['prod-cp-1', 'prod-cp-2']);
    expect(s.capi.kubeadmControlPlanes.map((k) => k.metadata.name)).toStrictEqual(['prod-control-plane']);
    expect(s.capi.machines.map((m) => m.metadata.name)).toStrictEqual([
      'prod-control-plane-x1',
      'prod-control-plane-x2',
    ]);
    expect(s.events.map((e) => [e.origin, e.reason])).toStrictEqual([
      ['workload', 'NodeNotReady'],
      ['management', 'ControlPlaneUnhealthy'],
    ]);
    expect(s.partial).toStrictEqual([{ source: 'list volumeattachments.storage.k8s.io', error: 'forbidden' }]);
    expect(s.apiserver).toMatchObject({ reachable: true, ready: false, error: 'readyz failed: etcd' });
    expect(s.etcd?.source).toBe('etcdctl');
    expect(s.etcd?.members.map((m) => m.id)).toStrictEqual(['9372538179322589801', '3319814642761637952']);
    expect(s.etcd?.endpoints).toStrictEqual([
      expect.objectContaining({
        endpoint: 'https://10.0.0.12:2379',
        memberId: '3319814642761637952',
        leader: '3319814642761637952',
      }),
    ]);
    expect(s.etcd?.health.map((h) => [h.endpoint, h.health, h.error])).toStrictEqual([
      ['https://10.0.0.11:2379', false, 'context deadline exceeded'],
      ['https://10.0.0.12:2379', true, undefined],
    ]);
  });

  it('readDumpObjects keeps the two clusters apart for the fake API server', async () => {
    const d = await readDumpObjects(fixtureDir('workload-management-split'));
    expect(d.workload.map((o) => o.kind).sort()).toStrictEqual(['Event', 'Node', 'Node']);
    expect(d.management?.map((o) => o.kind).sort()).toStrictEqual([
      'Event',
      'KubeadmControlPlane',
      'Machine',
      'Machine',
    ]);
    expect(d.meta).toStrictEqual({
      cluster: 'prod-east',
      collectedAt: '2025-03-01T12:00:00Z',
      partial: [{ source: 'list volumeattachments.storage.k8s.io', error: 'forbidden' }],
    });
  });
});

describe('loadDump: etcd output', () => {
  it('keeps uint64 ids exact and reads etcd 3.4 omissions (quorum lost)', async () => {
    const s = await loadDump(fixtureDir('etcd-3.4-quorum-lost'));
    expect(s.etcd).toStrictEqual({
      source: 'etcdctl',
      members: [
        { id: '3319814642761637952', name: '', peerURLs: ['https://10.0.0.24:2380'], clientURLs: [], isLearner: true },
        {
          id: '9372538179322589801',
          name: 'cp-a',
          peerURLs: ['https://10.0.0.21:2380'],
          clientURLs: ['https://10.0.0.21:2379'],
          isLearner: false,
        },
        {
          id: '18249187646912138824',
          name: 'cp-c',
          peerURLs: ['https://10.0.0.23:2380'],
          clientURLs: ['https://10.0.0.23:2379'],
          isLearner: false,
        },
      ],
      // The dead endpoint 10.0.0.21 is absent from status output: it stays absent.
      endpoints: [
        {
          endpoint: 'https://10.0.0.23:2379',
          memberId: '18249187646912138824',
          raftTerm: '7',
          raftIndex: '70211',
          raftAppliedIndex: '70211',
          version: '3.4.23',
          dbSize: 4194304,
          isLearner: false,
          errors: ['etcdserver: no leader'],
        },
      ],
      health: [
        { endpoint: 'https://10.0.0.21:2379', health: false, error: 'context deadline exceeded' },
        { endpoint: 'https://10.0.0.23:2379', health: false, took: '5.001s', error: 'etcdserver: no leader' },
      ],
      alarms: [],
    });
  });

  it('derives the NOSPACE alarm from endpoint status errors', async () => {
    const s = await loadDump(fixtureDir('etcd-nospace-alarm'));
    expect(s.etcd?.alarms).toStrictEqual([{ memberId: '15300616325842721311', alarm: 'NOSPACE' }]);
    expect(s.etcd?.endpoints[0]?.leader).toBe('15300616325842721311');
  });
});

describe('loadDump: unreadable input', () => {
  it('an unparseable file becomes a partial entry naming the file and reason; the rest loads', async () => {
    const s = await loadDump(fixtureDir('one-file-unreadable'));
    expect(s.nodes.map((n) => n.metadata.name)).toStrictEqual(['worker-9']);
    expect(s.partial.map((p) => p.source)).toStrictEqual(['broken.yaml', 'default/pods.json']);
    for (const p of s.partial) {
      expect(p.error).not.toContain('\n');
      expect(p.error).toMatch(/^invalid (YAML|JSON): ./);
    }
  });

  it('a missing directory is a DumpError naming the path', async () => {
    const dir = path.join(tmp, 'nope');
    await expect(loadDump(dir)).rejects.toThrow(`dump directory ${dir} does not exist`);
    await expect(loadDump(dir)).rejects.toBeInstanceOf(DumpError);
    await expect(loadDump(dir)).rejects.toMatchObject({ code: 'E_DUMP', name: 'DumpError' });
  });

  it('a file instead of a directory is a DumpError', async () => {
    const file = path.join(tmp, 'a-file.json');
    await writeFile(file, '{}');
    await expect(loadDump(file)).rejects.toThrow(`dump directory ${file} is not a directory`);
  });

  it('an empty directory, or one with only logs and unknown kinds, is a DumpError', async () => {
    const empty = path.join(tmp, 'empty');
    await mkdir(empty);
    await expect(loadDump(empty)).rejects.toThrow(`dump directory ${empty} contains no Kubernetes objects`);
    const dir = fixtureDir('no-kubernetes-objects');
    await expect(loadDump(dir)).rejects.toThrow(`dump directory ${dir} contains no Kubernetes objects`);
  });

  it('only unparseable files: the DumpError says which file failed first', async () => {
    const dir = path.join(tmp, 'only-broken');
    await mkdir(dir);
    await writeFile(path.join(dir, 'nodes.json'), '{"kind": ');
    await expect(loadDump(dir)).rejects.toThrow(
      /contains no Kubernetes objects \(1 file\(s\) could not be read; first: nodes\.json: invalid JSON/,
    );
  });
});

describe('loadDump: files saved on Windows and stray files', () => {
  it('reads UTF-16LE (PowerShell redirect) and UTF-8 BOM files', async () => {
    const dir = path.join(tmp, 'windows');
    await mkdir(dir);
    const nodes = JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', items: [{ metadata: { name: 'win-node' } }] });
    await writeFile(
      path.join(dir, 'nodes.json'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(nodes, 'utf16le')]),
    );
    await writeFile(
      path.join(dir, 'pvc.yaml'),
      '\ufeffapiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: data, namespace: db }\n',
    );
    const s = await loadDump(dir);
    expect(s.nodes.map((n) => n.metadata.name)).toStrictEqual(['win-node']);
    expect(s.persistentVolumeClaims.map((p) => p.metadata.name)).toStrictEqual(['data']);
    expect(s.partial).toStrictEqual([]);
  });

  it('with workload/ present, an object file loose in DIR is reported, not silently dropped', async () => {
    const dir = path.join(tmp, 'stray');
    await cp(fixtureDir('workload-management-split'), dir, { recursive: true });
    await writeFile(
      path.join(dir, 'extra-nodes.json'),
      '{"kind":"Node","apiVersion":"v1","metadata":{"name":"stray"}}',
    );
    const s = await loadDump(dir);
    expect(s.nodes.map((n) => n.metadata.name)).toStrictEqual(['prod-cp-1', 'prod-cp-2']);
    expect(s.partial).toContainEqual({
      source: 'extra-nodes.json',
      error: expect.stringContaining('not read: DIR/workload/ exists'),
    });
  });
});

describe('loadDump: determinism', () => {
  it('two reads are deep-equal, and file names/order do not change the result', async () => {
    const a = await loadDump(fixtureDir('cluster-info-dump-kindless-items'), { cluster: 'x' });
    const b = await loadDump(fixtureDir('cluster-info-dump-kindless-items'), { cluster: 'x' });
    expect(b).toStrictEqual(a);
    // Same objects, other file layout: one renamed and moved file.
    const moved = path.join(tmp, 'moved');
    await cp(fixtureDir('cluster-info-dump-kindless-items'), moved, { recursive: true });
    await mkdir(path.join(moved, 'aaa'));
    await cp(path.join(moved, 'kube-system', 'pods.json'), path.join(moved, 'aaa', 'zz-pods.json'));
    await rm(path.join(moved, 'kube-system', 'pods.json'));
    const c = await loadDump(moved, { cluster: 'x' });
    expect({ ...c, collectedAt: a.collectedAt }).toStrictEqual(a);
  });
});
