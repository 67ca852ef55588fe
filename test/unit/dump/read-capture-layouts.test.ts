import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { findNewestTime } from '../../../src/cluster/dump/find-newest-time.js';
import { kindFromPath } from '../../../src/cluster/dump/kind-from-path.js';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { readObjectFile } from '../../../src/cluster/dump/parse-object-file.js';
import { splitJsonDocuments } from '../../../src/cluster/dump/split-json-documents.js';

/**
 * The layouts real captures come in (sonobuoy results, troubleshoot support bundles, a saved
 * stdout of `kubectl cluster-info dump`), foreign Machine kinds, and the capture time read from the data.
 */
let tmp: string;
let n = 0;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'capture-layouts-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A dump directory from { relative path: content }. */
async function dumpOf(files: Record<string, string>): Promise<string> {
  const dir = path.join(tmp, `d${++n}`);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** A Ready node created and Ready long before its last heartbeat. */
const node = (name: string, heartbeat: string) => ({
  metadata: { name, creationTimestamp: '2020-01-01T00:00:00Z' },
  status: {
    conditions: [
      { type: 'Ready', status: 'True', lastHeartbeatTime: heartbeat, lastTransitionTime: '2020-01-01T00:00:10Z' },
    ],
  },
});

describe('kindFromPath: what a file name says about kind-less items', () => {
  it.each([
    ['resources/cluster/core_v1_nodes.json', 'Node'],
    ['resources/ns/kube-system/core_v1_pods.json', 'Pod'],
    [
      'resources/cluster/admissionregistration.k8s.io_v1_validatingwebhookconfigurations.json',
      'ValidatingWebhookConfiguration',
    ],
    ['resources/ns/ns-prod/cluster.x-k8s.io_v1beta1_machines.json', 'Machine'],
    ['cluster-resources/pods/default.json', 'Pod'],
    ['cluster-resources/pvcs/db.json', 'PersistentVolumeClaim'],
    ['cluster-resources/nodes.json', 'Node'],
    ['kube-system/pods.json', 'Pod'],
    ['management/machines.cluster.x-k8s.io.yaml', 'Machine'],
  ])('%s → %s', (p, kind) => {
    expect(kindFromPath(p).spec?.kind).toBe(kind);
  });

  it.each([
    'resources/ns/default/core_v1_configmaps.json',
    'cluster-resources/configmaps/default.json',
    'kube-system/replication-controllers.json',
    'cluster-resources/pvs.json',
  ])('%s names a kind we do not read (its items are ignored, not reported)', (p) =>
    expect(kindFromPath(p)).toEqual({ unread: true }),
  );

  it('a sonobuoy file of a group we do not read is not mistaken for ours', () => {
    expect(kindFromPath('resources/cluster/longhorn.io_v1beta2_nodes.json')).toEqual({ unread: true });
  });
});

describe('readObjectFile', () => {
  it('a bare JSON array (older support bundles) lists the kind its path names, even empty', () => {
    const empty = readObjectFile('[]', 'cluster-resources/nodes.json');
    expect(empty.listed.map((k) => k.kind)).toEqual(['Node']);
    const one = readObjectFile(JSON.stringify([node('n1', '2024-11-17T10:24:54Z')]), 'cluster-resources/nodes.json');
    expect(one.objects.map((o) => [o.kind, o.metadata.name])).toEqual([['Node', 'n1']]);
  });

  it('notes objects of a kind we read in another API group, and never reads them', () => {
    const text = [
      'apiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: { name: m1, namespace: openshift-machine-api }\nspec: {}',
      'apiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: { name: m2, namespace: openshift-machine-api }\nspec: {}',
      'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Machine\nmetadata: { name: capi-1, namespace: ns }\nspec: {}',
    ].join('\n---\n');
    const r = readObjectFile(text, 'machines.yaml');
    expect(r.objects.map((o) => o.metadata.name)).toEqual(['capi-1']);
    expect(r.foreign).toEqual([{ kind: 'Machine', apiVersion: 'machine.openshift.io/v1beta1', count: 2 }]);
    // The items of a foreign typed list are foreign too, even without their own kind.
    const list = readObjectFile(
      JSON.stringify({
        kind: 'MachineList',
        apiVersion: 'machine.openshift.io/v1beta1',
        items: [{ metadata: { name: 'x' }, spec: {} }],
      }),
      'all.json',
    );
    expect([list.objects, list.foreign]).toEqual([
      [],
      [{ kind: 'Machine', apiVersion: 'machine.openshift.io/v1beta1', count: 1 }],
    ]);
  });

  it('counts Kubernetes-looking objects whose kind nothing says; ignores JSON that is not Kubernetes data', () => {
    expect(
      readObjectFile(
        JSON.stringify([
          { metadata: { name: 'a' }, spec: {} },
          { metadata: { name: 'b' }, status: {} },
        ]),
        'mystery.json',
      ).kindless,
    ).toBe(2);
    const analysis = readObjectFile(JSON.stringify([{ name: 'node-count', isPass: true }]), 'analysis.json');
    expect([analysis.kindless, analysis.holdsObjects]).toEqual([0, false]);
  });
});

describe('splitJsonDocuments: a saved stdout of kubectl cluster-info dump', () => {
  it('reads the run-together Lists, skips prompt lines and whole log blocks (which may hold JSON and braces)', () => {
    const text = [
      'PS C:\\work> kubectl cluster-info dump',
      '{\n"kind": "NodeList",\n"apiVersion": "v1",\n"items": []\n}',
      '{\n    "kind": "EventList",\n    "items": []\n}',
      '==== START logs for container coredns of pod kube-system/coredns-1 ====',
      '{"level":"info","msg":"unbalanced { in a log"',
      '[INFO] plugin/reload: Running configuration SHA512 = {',
      '==== END logs for container coredns of pod kube-system/coredns-1 ====',
      '{\n"kind": "PodList",\n"items": [{"metadata": {"name": "p1", "namespace": "kube-system"}, "status": {"phase": "Running"}}]\n}',
    ].join('\n');
    expect(splitJsonDocuments(text).map((d) => (d as { kind: string }).kind)).toEqual([
      'NodeList',
      'EventList',
      'PodList',
    ]);
  });

  it('throws when no document can be read', () => {
    expect(() => splitJsonDocuments('just a log line\n{ "unterminated": ')).toThrow(/^invalid JSON/);
  });
});

describe('findNewestTime', () => {
  it('takes managedFields, conditions, container states, event times; never deletionTimestamp; ignores a far future', () => {
    const pod = {
      metadata: {
        name: 'p',
        creationTimestamp: '2025-09-11T20:50:19Z',
        deletionTimestamp: '2030-01-01T00:00:00Z',
        managedFields: [{ manager: 'k3s', time: '2025-09-11T20:53:31Z' }],
      },
      status: {
        conditions: [{ type: 'Ready', lastTransitionTime: '2025-09-11T20:50:19Z' }],
        containerStatuses: [{ lastState: { terminated: { finishedAt: '2025-09-11T20:53:27Z' } } }],
      },
    };
    expect(new Date(findNewestTime(pod)!).toISOString()).toBe('2025-09-11T20:53:31.000Z');
    const event = {
      metadata: { name: 'e' },
      firstTimestamp: '2024-11-17T10:19:41Z',
      lastTimestamp: '2024-11-17T10:29:41Z',
      eventTime: null,
    };
    expect(new Date(findNewestTime(event)!).toISOString()).toBe('2024-11-17T10:29:41.000Z');
    expect(
      findNewestTime(
        { metadata: { name: 'x', creationTimestamp: '9999-01-01T00:00:00Z' } },
        Date.parse('2026-01-01T00:00:00Z'),
      ),
    ).toBeUndefined();
  });

  it('reads both Cluster API condition lists: status.v1beta2 (CAPI v1.9/v1.10) and status.deprecated.v1beta1 (v1beta2)', () => {
    // The real Cluster of test/fixtures/real/argocd-pr25661-capi-v1.10-kcp-rollout-scaling-down-new-member-not-ready:
    // its v1beta1 conditions stop at 11:26:49, its v1beta2 ones go on to 12:39:02 (72 minutes later).
    const v1beta1Served = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'cluster-qf-mathieu' },
      status: {
        conditions: [{ type: 'TopologyReconciled', status: 'False', lastTransitionTime: '2025-12-09T11:26:49Z' }],
        v1beta2: {
          conditions: [
            { type: 'ControlPlaneMachinesReady', status: 'False', lastTransitionTime: '2025-12-09T12:39:02Z' },
          ],
        },
      },
    };
    expect(new Date(findNewestTime(v1beta1Served)!).toISOString()).toBe('2025-12-09T12:39:02.000Z');
    const v1beta2Served = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'kcp' },
      status: {
        conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-02-18T05:25:31Z' }],
        deprecated: {
          v1beta1: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-02-18T05:30:45Z' }] },
        },
      },
    };
    expect(new Date(findNewestTime(v1beta2Served)!).toISOString()).toBe('2026-02-18T05:30:45.000Z');
    // Odd shapes are ignored, not thrown on.
    expect(
      findNewestTime({ metadata: { name: 'y' }, status: { v1beta2: 'x', deprecated: { v1beta1: [] } } }),
    ).toBeUndefined();
  });
});

describe('loadDump on real capture layouts', () => {
  it('sonobuoy results: kinds from file names; no meta.json → collectedAt is the newest time in the data', async () => {
    const dir = await dumpOf({
      'meta/run.log': 'not read',
      'resources/cluster/core_v1_nodes.json': JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [node('kind-control-plane', '2022-01-27T14:44:03Z'), node('kind-worker', '2022-02-03T19:02:54Z')],
      }),
      'resources/cluster/admissionregistration.k8s.io_v1_validatingwebhookconfigurations.json': JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [],
      }),
      'resources/ns/kube-system/core_v1_pods.json': JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [{ metadata: { name: 'etcd-x', namespace: 'kube-system' }, status: { phase: 'Running' } }],
      }),
      'podlogs/kube-system/etcd-x/logs/etcd.txt': '{"level":"warn","msg":"not a capture"}',
    });
    const s = await loadDump(dir);
    expect(s.nodes.map((x) => x.metadata.name)).toEqual(['kind-control-plane', 'kind-worker']);
    expect(s.pods.map((p) => p.name)).toEqual(['etcd-x']);
    expect([s.collectedAt, s.collectedAtFrom]).toEqual(['2022-02-03T19:02:54.000Z', 'data']);
    expect(s.coverage?.['ValidatingWebhookConfiguration']).toEqual({ state: 'read' });
    expect(s.coverage?.['MutatingWebhookConfiguration']).toEqual({ state: 'missing', why: 'not in the capture' });
    expect(s.partial).toEqual([]);
  });

  it('troubleshoot support bundle: bare arrays per namespace, and a <kind>-errors.json makes that kind failed', async () => {
    const dir = await dumpOf({
      'version.yaml': 'apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.121.3\n',
      'cluster-resources/nodes.json': JSON.stringify([node('n1', '2025-09-11T20:50:35Z')]),
      'cluster-resources/pods/default.json': JSON.stringify([
        { metadata: { name: 'web-1', namespace: 'default' }, status: { phase: 'Running' } },
      ]),
      'cluster-resources/pods-errors.json': JSON.stringify({
        'kube-system':
          'pods is forbidden: User "system:serviceaccount:default:sb" cannot list resource "pods" in the namespace "kube-system"',
      }),
      'cluster-resources/configmaps/default.json': JSON.stringify([{ metadata: { name: 'cm' }, data: {} }]),
      'cluster-resources/pod-disruption-budgets-errors.json': JSON.stringify([
        'the server could not find the requested resource',
      ]),
    });
    const s = await loadDump(dir);
    expect(s.nodes.map((x) => x.metadata.name)).toEqual(['n1']);
    expect(s.pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(['default/web-1']);
    expect(s.coverage?.['Pod']).toEqual({ state: 'failed', why: expect.stringContaining('pods is forbidden') });
    expect(s.partial).toEqual([
      {
        source: 'cluster-resources/pods-errors.json',
        error: expect.stringContaining('1 collection error(s); first: kube-system: pods is forbidden'),
      },
    ]);
  });

  it('a saved kubectl cluster-info dump stdout (.txt or .json) is read; logs.txt never is', async () => {
    const stdout = [
      'PS C:\\Users\\ops> kubectl cluster-info dump',
      JSON.stringify(
        { kind: 'NodeList', apiVersion: 'v1', items: [node('minikube', '2024-11-17T10:24:54Z')] },
        null,
        4,
      ),
      JSON.stringify(
        {
          kind: 'PodList',
          apiVersion: 'v1',
          items: [{ metadata: { name: 'coredns-1', namespace: 'kube-system' }, status: { phase: 'Running' } }],
        },
        null,
        4,
      ),
      '==== START logs for container coredns of pod kube-system/coredns-1 ====',
      '.:53 { broken',
      '==== END logs for container coredns of pod kube-system/coredns-1 ====',
    ].join('\n');
    for (const name of ['cluster-info-dump.txt', 'cluster-info-dump.json']) {
      const s = await loadDump(
        await dumpOf({ [name]: stdout, 'kube-system/coredns-1/logs.txt': '{"kind": "NodeList", "items": []}' }),
      );
      expect([s.nodes.map((x) => x.metadata.name), s.pods.map((p) => p.name), s.partial]).toEqual([
        ['minikube'],
        ['coredns-1'],
        [],
      ]);
    }
  });

  it('a capture of only foreign Machine kinds is read (not an error): noted, nothing read, time unknown', async () => {
    const s = await loadDump(
      await dumpOf({
        'machines.yaml':
          'apiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: { name: m1, namespace: openshift-machine-api }\nspec: {}\n',
        'mhc.yaml':
          'apiVersion: machine.openshift.io/v1beta1\nkind: MachineHealthCheck\nmetadata: { name: h, namespace: openshift-machine-api }\nspec: {}\n',
      }),
    );
    expect(s.capi.machines).toEqual([]);
    expect(s.capi.machineHealthChecks).toEqual([]);
    expect(s.partial.map((p) => p.source)).toEqual([
      '1 Machine object(s) of machine.openshift.io/v1beta1',
      '1 MachineHealthCheck object(s) of machine.openshift.io/v1beta1',
    ]);
    expect([s.collectedAt, s.collectedAtFrom]).toEqual(['', 'unknown']);
  });

  it('meta.json collectedAt wins over the data; kind-less objects of an unnamed file are reported', async () => {
    const s = await loadDump(
      await dumpOf({
        'meta.json': JSON.stringify({ cluster: 'c', collectedAt: '2025-03-01T12:00:00Z' }),
        'nodes.json': JSON.stringify({
          kind: 'NodeList',
          apiVersion: 'v1',
          items: [node('n1', '2025-03-01T11:59:00Z')],
        }),
        'objects.json': JSON.stringify([{ metadata: { name: 'a' }, spec: {} }]),
      }),
    );
    expect([s.collectedAt, s.collectedAtFrom]).toEqual(['2025-03-01T12:00:00Z', undefined]);
    expect(s.partial).toEqual([
      { source: 'objects.json', error: '1 object(s) without a kind, and the file name does not say which: not read' },
    ]);
  });
});
