import { describe, expect, it } from '@jest/globals';
import type { KindCoverage, Snapshot } from '../../../src/cluster/snapshot.js';
import { KINDS } from '../../../src/cluster/kinds.js';
import { DEFAULT_THRESHOLDS } from '../../../src/config/config-schema.js';
import { analyzeSnapshot } from '../../../src/diagnose/analyze-snapshot.js';
import { ANALYZERS } from '../../../src/diagnose/analyzers/index.js';
import { capiDeletionHookPendingAnalyzer } from '../../../src/diagnose/analyzers/capi-deletion-hook-pending.js';
import { capiDrainBlockedAnalyzer } from '../../../src/diagnose/analyzers/capi-drain-blocked.js';
import { capiVolumeDetachPendingAnalyzer } from '../../../src/diagnose/analyzers/capi-volume-detach-pending.js';
import { EMPTY_HISTORY } from '../../../src/diagnose/history.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import {
  appPod,
  deletingMachine,
  drainMessage,
  pdb,
  pdbRefusalLine,
  pvc,
  volumeAttachment,
} from '../../support/blocker-objects.js';
import { buildContext, buildSnapshot, NOW } from '../../support/build-snapshot.js';
import { node } from '../../support/snapshot-b.js';

const NODE = 'c1-md-0-7d9f8-x2bq4';
const DB = { app: 'db' };
const allRead: Record<string, KindCoverage> = Object.fromEntries(KINDS.map((k) => [k.kind, { state: 'read' }]));
/** A cordoned node still running db-0, whose budget allows no disruption (minAvailable 2 of 2). */
const drainWorld = (machine: ReturnType<typeof deletingMachine>, extra: Partial<Snapshot> = {}) =>
  buildSnapshot({
    nodes: [{ ...node(NODE), spec: { unschedulable: true } }],
    pods: [appPod('shop', 'db-0', NODE, DB), appPod('shop', 'db-1', 'w2', DB)],
    podDisruptionBudgets: [pdb('shop', 'db', { matchLabels: DB, minAvailable: 2, allowed: 0 })],
    coverage: allRead,
    capi: { machines: [machine] },
    ...extra,
  });
const blocked = (o: Partial<Parameters<typeof deletingMachine>[0]> = {}) =>
  deletingMachine({
    deletingMin: 45,
    stage: 'DrainingNode',
    message: drainMessage(44, [pdbRefusalLine(['shop/db-0'], 'db', 2, 2)]),
    ...o,
  });

describe('capi.drain-blocked', () => {
  it('names the PodDisruptionBudget and its pod, says there is no drain timeout, and proposes skipping the drain of that one machine', () => {
    const [f] = capiDrainBlockedAnalyzer.analyze(buildContext(drainWorld(blocked())));
    expect(f).toMatchObject({
      id: 'capi.drain-blocked',
      severity: 'warning',
      subject: { kind: 'Machine', namespace: 'ns1', name: NODE },
    });
    expect(f!.title).toBe(
      `Machine ns1/${NODE} cannot be deleted: drain of node ${NODE} refused by PodDisruptionBudget shop/db (for 44m)`,
    );
    expect(f!.evidence).toEqual(
      expect.arrayContaining([
        expect.stringContaining('condition Deleting reason=DrainingNode'),
        `node ${NODE} is cordoned (spec.unschedulable: true)`,
        'eviction refused by PodDisruptionBudget shop/db (needs 2 healthy pods, has 2): shop/db-0',
        `PodDisruptionBudget shop/db: minAvailable=2, status.disruptionsAllowed=0 (currentHealthy 2, desiredHealthy 2, expectedPods 2); covers shop/db-0 on node ${NODE}`,
        'no nodeDrainTimeout on the Machine: Cluster API waits for this drain without limit',
      ]),
    );
    expect(f!.missing).toBeUndefined();
    expect(f!.remediations).toEqual([
      {
        action: 'machine.skip-drain',
        params: { namespace: 'ns1', name: NODE },
        label: `Skip drain: ${NODE}`,
        risk: `Cluster API stops evicting: the pods PodDisruptionBudget shop/db protects on ${NODE} are killed with the VM instead of evicted, and the budget is not honoured.`,
      },
    ]);
    expect(f!.ids).toEqual({ machine: `ns1/${NODE}`, node: NODE, podDisruptionBudgets: 'shop/db' });
  });

  it('finds the budget from the snapshot alone when the Machine (v1beta1, CAPI < 1.9) quotes no refusal', () => {
    const m = deletingMachine({
      deletingMin: 45,
      stage: 'DrainingNode',
      v1beta1: true,
      message: 'Draining the node before deletion',
    });
    const [f] = capiDrainBlockedAnalyzer.analyze(buildContext(drainWorld(m)));
    expect(f!.evidence[0]).toContain('condition DrainingSucceeded=False reason=Draining');
    expect(f!.title).toContain('refused by PodDisruptionBudget shop/db');
    expect(f!.remediations.map((r) => r.action)).toEqual(['machine.skip-drain']);
  });

  it('names pods that do not terminate when no budget is involved', () => {
    const m = deletingMachine({
      deletingMin: 45,
      stage: 'DrainingNode',
      message: drainMessage(44, ['* Pod shop/cache-0: deletionTimestamp set, but still not removed from the Node']),
    });
    const [f] = capiDrainBlockedAnalyzer.analyze(buildContext(drainWorld(m, { podDisruptionBudgets: [] })));
    expect(f!.title).toContain('waits for pods that do not terminate: shop/cache-0');
    expect(f!.causedBy).toEqual([
      fingerprint('it-tkg-mgmt', 'pod.stuck-terminating', { kind: 'Pod', namespace: 'shop', name: 'cache-0' }),
    ]);
  });

  it('without PodDisruptionBudgets read it says so and proposes nothing (never a write on missing evidence)', () => {
    const snap = drainWorld(blocked(), {
      coverage: { ...allRead, PodDisruptionBudget: { state: 'failed', why: 'forbidden' } },
      podDisruptionBudgets: [],
    });
    const [f] = capiDrainBlockedAnalyzer.analyze(buildContext(snap));
    expect(f!.missing).toEqual([
      "PodDisruptionBudgets not read: the budgets are named from the Machine's condition only",
    ]);
    expect(f!.remediations).toEqual([]);
    expect(f!.title).toContain('refused by PodDisruptionBudget db');
  });

  it.each([
    ['a short drain (5 minutes, benign)', blocked({ deletingMin: 6, stageMin: 5 })],
    ['a drain that started 2 minutes ago after a long hook', blocked({ deletingMin: 60, stageMin: 2 })],
    [
      'the exclude-node-draining annotation is already set',
      blocked({ annotations: { 'machine.cluster.x-k8s.io/exclude-node-draining': 'true' } }),
    ],
    ['its nodeDrainTimeout has passed (Cluster API moves on)', blocked({ drainTimeoutSeconds: 600 })],
    ['another stage (volume detach)', deletingMachine({ deletingMin: 45, stage: 'WaitingForVolumeDetach' })],
    ['not being deleted', { ...blocked(), metadata: { ...blocked().metadata, deletionTimestamp: undefined } }],
  ])('quiet: %s', (_n, m) => {
    expect(capiDrainBlockedAnalyzer.analyze(buildContext(drainWorld(m)))).toEqual([]);
  });
});

describe('capi.deletion-hook-pending', () => {
  it('names every pre-drain hook and its owner, proposes nothing and tells whom to ask', () => {
    const m = deletingMachine({
      deletingMin: 50,
      stage: 'WaitingForPreDrainHook',
      message:
        'Waiting for pre-drain hooks to succeed (hooks: pre-drain.delete.hook.machine.cluster.x-k8s.io/migrate-pvs)',
      annotations: { 'pre-drain.delete.hook.machine.cluster.x-k8s.io/migrate-pvs': 'storage-migrator' },
    });
    const [f] = capiDeletionHookPendingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [m] } })));
    expect(f!.title).toBe(
      `Machine ns1/${NODE} deletion waits on pre-drain hook migrate-pvs (owner storage-migrator) not removed (for 49m)`,
    );
    expect(f!.evidence).toContain(
      'annotation pre-drain.delete.hook.machine.cluster.x-k8s.io/migrate-pvs: "storage-migrator" (hook migrate-pvs, owner storage-migrator)',
    );
    expect(f!.remediations).toEqual([]);
    expect(f!.steps).toEqual([
      'ask storage-migrator to finish or remove its hook migrate-pvs (annotation pre-drain.delete.hook.machine.cluster.x-k8s.io/migrate-pvs)',
    ]);
    expect(f!.cause).toContain("never removes someone else's hook");
  });

  it("KubeadmControlPlane's own kcp-cleanup hook points at etcd, and says it waits for the other pre-terminate hooks", () => {
    const only = deletingMachine({
      controlPlane: true,
      deletingMin: 40,
      stage: 'WaitingForPreTerminateHook',
      annotations: { 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/kcp-cleanup': '' },
    });
    const [f] = capiDeletionHookPendingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [only] } })));
    expect(f!.title).toContain('pre-terminate hook kcp-cleanup (owner KubeadmControlPlane c1-cp)');
    expect(f!.cause).toMatch(/removes this machine's etcd member first, so look at etcd/);
    const both = deletingMachine({
      controlPlane: true,
      deletingMin: 40,
      stage: 'WaitingForPreTerminateHook',
      annotations: {
        'pre-terminate.delete.hook.machine.cluster.x-k8s.io/kcp-cleanup': '',
        'pre-terminate.delete.hook.machine.cluster.x-k8s.io/backup': 'velero',
      },
    });
    const [g] = capiDeletionHookPendingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [both] } })));
    expect(g!.evidence.join('\n')).toContain(
      'waits for the other pre-terminate hooks before removing the etcd member (Kubernetes ≥ 1.31): backup first',
    );
    expect(g!.cause).toContain('Ask its owner (velero, KubeadmControlPlane c1-cp)');
  });

  it('quiet: a hook that clears in time (4 minutes)', () => {
    const m = deletingMachine({
      deletingMin: 4,
      stage: 'WaitingForPreDrainHook',
      annotations: { 'pre-drain.delete.hook.machine.cluster.x-k8s.io/migrate-pvs': 'storage-migrator' },
    });
    expect(capiDeletionHookPendingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [m] } })))).toEqual(
      [],
    );
  });

  it('reads a v1beta1 Machine without a Deleting condition from the hook annotation alone', () => {
    const m = deletingMachine({
      v1beta1: true,
      deletingMin: 30,
      annotations: { 'pre-drain.delete.hook.machine.cluster.x-k8s.io/drain-gate': 'ops-team' },
    });
    const [f] = capiDeletionHookPendingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [m] } })));
    expect(f!.evidence[0]).toContain('annotation pre-drain.delete.hook.machine.cluster.x-k8s.io/drain-gate');
  });
});

describe('capi.volume-detach-pending', () => {
  const waiting = deletingMachine({
    deletingMin: 40,
    stage: 'WaitingForVolumeDetach',
    message:
      'Waiting for Node volumes to be detached (started at 2023-11-30T16:21:00Z)\n* PersistentVolumeClaims: shop/data-db-0',
  });
  const world = (extra: Partial<Snapshot> = {}) =>
    buildSnapshot({
      nodes: [node(NODE)],
      volumeAttachments: [
        volumeAttachment('csi-9f1', NODE, 'pvc-7c1e', {
          detachError: 'rpc error: code = Internal desc = disk is busy',
        }),
      ],
      persistentVolumeClaims: [pvc('shop', 'data-db-0', 'pvc-7c1e')],
      coverage: allRead,
      capi: { machines: [waiting] },
      ...extra,
    });

  it('names the attachment, its PVC and detach error, and proposes skipping the wait with the data-loss risk', () => {
    const [f] = capiVolumeDetachPendingAnalyzer.analyze(buildContext(world()));
    expect(f!.title).toBe(
      `Machine ns1/${NODE} cannot be deleted: volume pvc-7c1e still attached to node ${NODE} (for 39m)`,
    );
    expect(f!.evidence).toContain(
      `VolumeAttachment csi-9f1: csi.vsphere.vmware.com volume pvc-7c1e (PVC shop/data-db-0) still attached to node ${NODE}, detachError "rpc error: code = Internal desc = disk is busy"`,
    );
    expect(f!.remediations).toHaveLength(1);
    expect(f!.remediations[0]).toMatchObject({
      action: 'machine.skip-volume-detach',
      params: { namespace: 'ns1', name: NODE },
    });
    expect(f!.remediations[0]!.risk).toMatch(/on vSphere an attached disk is deleted with the VM \(data loss\)/);
  });

  it('without VolumeAttachments read: missing, no proposal', () => {
    const [f] = capiVolumeDetachPendingAnalyzer.analyze(
      buildContext(
        world({
          volumeAttachments: [],
          coverage: { ...allRead, VolumeAttachment: { state: 'missing', why: 'not in the capture' } },
        }),
      ),
    );
    expect(f!.missing).toEqual([
      "VolumeAttachments not read: which volumes are still attached comes from the Machine's condition only",
    ]);
    expect(f!.remediations).toEqual([]);
  });
});

describe('the blocker is the cause of the stuck deletion and of the stalled rollout', () => {
  it('capi.machine-stuck-deleting and upgrade.stuck name capi.drain-blocked (whole registry, links kept)', () => {
    const cp = deletingMachine({
      name: 'c1-cp-old1',
      controlPlane: true,
      deletingMin: 45,
      stage: 'DrainingNode',
      message: drainMessage(44, [pdbRefusalLine(['kube-system/coredns-1'], 'coredns', 2, 2)]),
    });
    const kcp = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c1-cp', namespace: 'ns1', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
      spec: { replicas: 3, version: 'v1.31.4' },
      status: {
        replicas: 4,
        upToDateReplicas: 1,
        readyReplicas: 3,
        conditions: [
          {
            type: 'RollingOut',
            status: 'True',
            reason: 'RollingOut',
            lastTransitionTime: new Date(Date.parse(NOW) - 80 * 60000).toISOString(),
          },
        ],
      },
    };
    const snap = buildSnapshot({
      nodes: [node('c1-cp-old1')],
      pods: [appPod('kube-system', 'coredns-1', 'c1-cp-old1', { k8s: 'coredns' })],
      podDisruptionBudgets: [
        pdb('kube-system', 'coredns', { matchLabels: { k8s: 'coredns' }, minAvailable: 2, allowed: 0 }),
      ],
      coverage: allRead,
      capi: { machines: [cp], kubeadmControlPlanes: [kcp] },
    });
    const { findings } = analyzeSnapshot(snap, ANALYZERS, {
      history: EMPTY_HISTORY,
      thresholds: DEFAULT_THRESHOLDS,
      now: new Date(NOW),
    });
    const drain = findings.find((f) => f.id === 'capi.drain-blocked')!;
    const stuck = findings.find((f) => f.id === 'capi.machine-stuck-deleting')!;
    const upgrade = findings.find((f) => f.id === 'upgrade.stuck')!;
    expect(stuck.causedBy).toEqual([drain.fingerprint]);
    expect(stuck.cause).toBe(
      'drain of node c1-cp-old1 refused by PodDisruptionBudget kube-system/coredns (capi.drain-blocked).',
    );
    expect(upgrade.causedBy).toEqual([drain.fingerprint]);
    expect(upgrade.cause).toContain(
      'the rollout is held: old machine c1-cp-old1 cannot be deleted: drain of node c1-cp-old1 refused by PodDisruptionBudget kube-system/coredns.',
    );
    // The root cause is read first.
    expect(findings.findIndex((f) => f.id === 'capi.drain-blocked')).toBeLessThan(
      findings.findIndex((f) => f.id === 'capi.machine-stuck-deleting'),
    );
  });
});
