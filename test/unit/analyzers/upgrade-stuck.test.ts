import { describe, expect, it } from '@jest/globals';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../../src/config/config-schema.js';
import { upgradeStuckAnalyzer } from '../../../src/diagnose/analyzers/upgrade-stuck.js';
import { scanSnapshot } from '../../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../../src/store/in-memory-history.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import type { HistoryView } from '../../../src/diagnose/history.js';
import { ago, buildContext, buildSnapshot, kcp, machine } from '../../support/build-snapshot.js';
import { s2Snapshot } from './s2-fixture.js';
import { stuckJoinSnapshot, UNSTARTED_ID } from './stuck-join-fixture.js';

describe('upgrade.stuck', () => {
  it('seed S2 from one snapshot: newest machine 90m old, cause node-not-joined → member-mismatch, scale proposal', () => {
    const [f] = upgradeStuckAnalyzer.analyze(buildContext(s2Snapshot(90)));
    expect(f).toMatchObject({
      severity: 'warning',
      section: 'upgrades',
      subject: { kind: 'KubeadmControlPlane', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' },
    });
    expect(f!.title).toMatch(/stuck for 1h30m \(1\/3 updated\)/);
    expect(f!.causedBy).toEqual([
      fingerprint('it-tkg-mgmt', 'controlplane.node-not-joined', {
        kind: 'Machine',
        namespace: 'tkg-system',
        name: 'cp3',
      }),
      fingerprint('it-tkg-mgmt', 'etcd.member-mismatch', { kind: 'EtcdMember', name: 'cp3' }),
    ]);
    expect(f!.cause).toContain('Do not delete existing control-plane machines (data loss)');
    expect(f!.remediations[0]).toMatchObject({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'cache', replicas: 0 },
    });
  });

  it('benign rolling upgrade: newest machine created minutes ago → quiet', () => {
    expect(upgradeStuckAnalyzer.analyze(buildContext(s2Snapshot(4)))).toEqual([]);
  });

  it('history: updated replicas unchanged for 60m stalls even when machines keep being recreated', () => {
    const snap = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp({ replicas: 3, version: 'v1.28.8', updated: 0, v1beta2: true })],
        machines: [
          machine({ name: 'old', controlPlane: true, nodeName: 'old', version: 'v1.27.5', createdMinutesAgo: 5000 }),
          machine({ name: 'new', controlPlane: true, phase: 'Provisioning', version: 'v1.28.8', createdMinutesAgo: 8 }),
        ],
      },
    });
    const rollout = {
      kind: 'KubeadmControlPlane' as const,
      namespace: 'tkg-system',
      name: 'it-tkg-mgmt-rg44c',
      version: 'v1.28.8',
      replicas: 3,
      updatedReplicas: 0,
    };
    const history: HistoryView = {
      scans: [60, 40, 20].map((m) => ({ at: ago(m), machines: [], rollouts: [rollout], findings: [] })),
    };
    expect(upgradeStuckAnalyzer.analyze(buildContext(snap))).toEqual([]);
    const [f] = upgradeStuckAnalyzer.analyze(buildContext(snap, history));
    expect(f!.evidence.join('\n')).toMatch(/unchanged for 1h across earlier scans/);
  });

  it('an upgrade that just started (RollingOut since 5m) is not stuck even though all machines are old', () => {
    const k = kcp({ replicas: 3, version: 'v1.28.8', updated: 0 });
    k.status.conditions = [
      { type: 'MachinesSpecUpToDate', status: 'False', reason: 'RollingUpdateInProgress', lastTransitionTime: ago(5) },
    ];
    const snap = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [k],
        machines: [
          machine({ name: 'old', controlPlane: true, nodeName: 'old', version: 'v1.27.5', createdMinutesAgo: 5000 }),
        ],
      },
    });
    expect(upgradeStuckAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });

  it('MachineDeployment rollout behind for hours is reported; up to date is quiet', () => {
    const md = (updated: number) => ({
      kind: 'MachineDeployment',
      metadata: { name: 'md-0', namespace: 'tkg-system' },
      spec: { replicas: 3, template: { spec: { version: 'v1.28.8' } } },
      status: { replicas: 3, updatedReplicas: updated },
    });
    const ms = [machine({ name: 'w', deployment: 'md-0', nodeName: 'w', version: 'v1.27.5', createdMinutesAgo: 300 })];
    expect(
      upgradeStuckAnalyzer.analyze(
        buildContext(buildSnapshot({ capi: { machineDeployments: [md(1)], machines: ms } })),
      )[0]?.subject,
    ).toEqual({ kind: 'MachineDeployment', namespace: 'tkg-system', name: 'md-0' });
    expect(
      upgradeStuckAnalyzer.analyze(
        buildContext(buildSnapshot({ capi: { machineDeployments: [md(3)], machines: [] } })),
      ),
    ).toEqual([]);
  });

  it("defect class 7: stuck because a stale member holds the new machine's peer URL → remove that member, never scale workloads", () => {
    const [f] = upgradeStuckAnalyzer.analyze(buildContext(stuckJoinSnapshot(40)));
    expect(f!.remediations.map((r) => r.action)).toEqual(['etcd.remove-member']);
    expect(f!.remediations[0]!.params).toEqual({ memberId: UNSTARTED_ID });
    expect(f!.cause).toContain('Peer URLs already exists');
    expect(f!.cause).toContain('Do not delete existing control-plane machines');
    expect(f!.causedBy).toEqual([
      fingerprint('it-tkg-mgmt', 'etcd.member-mismatch', { kind: 'EtcdMember', name: 'e38f7103cfd379b6' }),
    ]);
  });
});

describe('upgrade.stuck held by a recreation loop (seed S3)', () => {
  it('the bundled S3 dump: the stuck KCP rollout is a symptom of the loop of the same KCP, whose cause is the webhook', async () => {
    const snap = await loadDump('examples/scenarios/s3-recreation-loop-webhook-down');
    const report = await scanSnapshot(snap, { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
    const stuck = report.findings.find((f) => f.id === 'upgrade.stuck');
    const loop = report.findings.find((f) => f.id === 'capi.recreation-loop');
    expect(loop?.subject).toMatchObject({ kind: 'KubeadmControlPlane', name: 'tkc-prod-control-plane' });
    expect(stuck?.causedBy).toEqual([loop!.fingerprint]);
    expect(stuck?.cause).toContain('recreation loop');
    expect(stuck?.remediations).toEqual([]);
  });
});
