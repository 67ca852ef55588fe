import { describe, expect, it } from '@jest/globals';
import type { KubeObject, Snapshot } from '../../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../../src/config/config-schema.js';
import { analyzeSnapshot } from '../../../src/diagnose/analyze-snapshot.js';
import { ANALYZERS } from '../../../src/diagnose/analyzers/index.js';
import { capiDrainTimeoutUnsetAnalyzer } from '../../../src/diagnose/analyzers/capi-drain-timeout-unset.js';
import { capiRemediationExhaustedAnalyzer } from '../../../src/diagnose/analyzers/capi-remediation-exhausted.js';
import { capiRemediationLoopingAnalyzer } from '../../../src/diagnose/analyzers/capi-remediation-looping.js';
import { capiRemediationPausedAnalyzer } from '../../../src/diagnose/analyzers/capi-remediation-paused.js';
import { capiRolloutBlockedAnalyzer } from '../../../src/diagnose/analyzers/capi-rollout-blocked.js';
import { capiRolloutPausedAnalyzer } from '../../../src/diagnose/analyzers/capi-rollout-paused.js';
import { EMPTY_HISTORY } from '../../../src/diagnose/history.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import { appPod, machineDeployment, mdMachine, pdb } from '../../support/blocker-objects.js';
import { ago, buildContext, buildSnapshot, kcp, machine, NOW, s0Snapshot } from '../../support/build-snapshot.js';
import { mhc, node } from '../../support/snapshot-b.js';

const cluster = (o: { paused?: boolean } = {}): KubeObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'c1', namespace: 'ns1' },
  spec: o.paused ? { paused: true } : {},
  status: {},
});
const all = (snap: Snapshot) =>
  analyzeSnapshot(snap, ANALYZERS, { history: EMPTY_HISTORY, thresholds: DEFAULT_THRESHOLDS, now: new Date(NOW) })
    .findings;

describe('capi.rollout-paused', () => {
  it('a paused MachineDeployment with a rollout owed is a warning, and upgrade.stuck names it as its cause', () => {
    const md = machineDeployment({ version: 'v1.31.4', upToDate: 1, paused: true, pausedSince: ago(90) });
    const snap = buildSnapshot({
      capi: {
        clusters: [cluster()],
        machineDeployments: [md],
        machines: [
          mdMachine('m-new', { createdMin: 95 }),
          mdMachine('m-a', { version: 'v1.30.2' }),
          mdMachine('m-b', { version: 'v1.30.2' }),
        ],
      },
    });
    const [f] = capiRolloutPausedAnalyzer.analyze(buildContext(snap));
    expect(f).toMatchObject({
      severity: 'warning',
      subject: { kind: 'MachineDeployment', namespace: 'ns1', name: 'c1-md-0' },
      since: ago(90),
    });
    expect(f!.evidence[0]).toBe('MachineDeployment ns1/c1-md-0: spec.paused: true');
    const findings = all(snap);
    const up = findings.find((x) => x.id === 'upgrade.stuck')!;
    expect(up.causedBy).toEqual([
      fingerprint(snap.cluster, 'capi.rollout-paused', {
        kind: 'MachineDeployment',
        namespace: 'ns1',
        name: 'c1-md-0',
      }),
    ]);
    expect(up.cause).toBe('the rollout is held: MachineDeployment c1-md-0 is paused (spec.paused: true).');
  });

  it('a paused Cluster with nothing owed is info (clusterctl move pauses on purpose); the annotation counts too', () => {
    const snap = buildSnapshot({
      capi: { clusters: [cluster({ paused: true })], machineDeployments: [machineDeployment()] },
    });
    const [f] = capiRolloutPausedAnalyzer.analyze(buildContext(snap));
    expect(f).toMatchObject({ severity: 'info', subject: { kind: 'Cluster', name: 'c1' } });
    expect(f!.missing).toBeUndefined();
    const annotated = buildSnapshot({ capi: { machineDeployments: [machineDeployment({ paused: 'annotation' })] } });
    expect(capiRolloutPausedAnalyzer.analyze(buildContext(annotated))[0]!.evidence[0]).toBe(
      'MachineDeployment ns1/c1-md-0: annotation cluster.x-k8s.io/paused',
    );
  });

  it('quiet when nothing is paused', () => {
    expect(
      capiRolloutPausedAnalyzer.analyze(
        buildContext(
          buildSnapshot({ capi: { clusters: [cluster()], machineDeployments: [machineDeployment({ upToDate: 1 })] } }),
        ),
      ),
    ).toEqual([]);
  });
});

describe('capi.rollout-blocked', () => {
  const noCapacity = 'VM could not be created: insufficient resources in resource pool ns1-pool (cpu 0 MHz free)';
  const world = (md: KubeObject) =>
    buildSnapshot({
      capi: {
        machineDeployments: [md],
        machines: [
          mdMachine('m-new', { createdMin: 45, noInfra: noCapacity }),
          mdMachine('m-a', { version: 'v1.30.2' }),
          mdMachine('m-b', { version: 'v1.30.2' }),
          mdMachine('m-c', { version: 'v1.30.2' }),
        ],
      },
    });

  it('maxUnavailable 0 (the default) and a new machine that gets no VM: names the machine and what its provider says', () => {
    const snap = world(machineDeployment({ upToDate: 0 }));
    const [f] = capiRolloutBlockedAnalyzer.analyze(buildContext(snap));
    expect(f!.title).toBe(
      'MachineDeployment ns1/c1-md-0 rollout waits for new machine m-new whose infrastructure is not provisioned after 45m',
    );
    expect(f!.evidence[0]).toBe(
      'MachineDeployment strategy RollingUpdate maxUnavailable=0 (default), maxSurge=1 (default): no old machine is deleted before a new one is Ready',
    );
    expect(f!.evidence).toContain(
      `Machine m-new: condition InfrastructureReady=False reason=NotReady message="${noCapacity}"`,
    );
    expect(f!.causedBy).toEqual([
      fingerprint(snap.cluster, 'capi.machine-stuck-provisioning', {
        kind: 'Machine',
        namespace: 'ns1',
        name: 'm-new',
      }),
    ]);
    expect(f!.remediations).toEqual([]);
    const up = all(snap).find((x) => x.id === 'upgrade.stuck')!;
    expect(up.causedBy).toContain(
      fingerprint(snap.cluster, 'capi.rollout-blocked', {
        kind: 'MachineDeployment',
        namespace: 'ns1',
        name: 'c1-md-0',
      }),
    );
  });

  it.each([
    ['maxUnavailable 1 (an old machine goes first)', machineDeployment({ upToDate: 0, maxUnavailable: 1 })],
    ['paused (that is capi.rollout-paused)', machineDeployment({ upToDate: 0, paused: true })],
    ['no rollout owed', machineDeployment({ upToDate: 3, version: 'v1.31.4' })],
  ])('quiet: %s', (_n, md) => {
    const snap = world(md);
    // "no rollout owed" must not count the old machines as outdated either.
    if (md.status.upToDateReplicas === 3)
      snap.capi.machines = [mdMachine('m-new', { createdMin: 45, noInfra: noCapacity })];
    expect(capiRolloutBlockedAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });
});

describe('capi.remediation-exhausted', () => {
  const gaveUp = (message: string) => {
    const m = machine({
      name: 'c1-cp-abc12',
      controlPlane: true,
      kcp: 'c1-cp',
      nodeName: 'c1-cp-abc12',
      v1beta2: true,
    });
    m.status.conditions.push(
      {
        type: 'HealthCheckSucceeded',
        status: 'False',
        reason: 'UnhealthyNode',
        message: 'Health check failed: Condition Ready on Node is reported as Unknown for more than 5m0s',
        lastTransitionTime: ago(50),
      },
      { type: 'OwnerRemediated', status: 'False', reason: 'CannotBeRemediated', message, lastTransitionTime: ago(40) },
    );
    return m;
  };
  it("reads KubeadmControlPlane's own words on the Machine (OwnerRemediated, MaxRetry) and is upgrade.stuck's cause", () => {
    const k = {
      ...kcp({ name: 'c1-cp', replicas: 3, updated: 1, version: 'v1.31.4', v1beta2: true }),
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      spec: { replicas: 3, version: 'v1.31.4', remediation: { maxRetry: 3 } },
    };
    const snap = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [k],
        machines: [
          gaveUp(
            "KubeadmControlPlane can't remediate this machine because the operation already failed 3 times (MaxRetry)",
          ),
        ],
      },
    });
    const [f] = capiRemediationExhaustedAnalyzer.analyze(buildContext(snap));
    expect(f).toMatchObject({ severity: 'warning', subject: { kind: 'Machine', name: 'c1-cp-abc12' }, since: ago(40) });
    expect(f!.title).toBe(
      'KubeadmControlPlane tkg-system/c1-cp gave up remediating c1-cp-abc12: 3 replacements failed (maxRetry 3)',
    );
    expect(f!.evidence).toContain(
      'condition OwnerRemediated=False reason=CannotBeRemediated message="KubeadmControlPlane can\'t remediate this machine because the operation already failed 3 times (MaxRetry)"',
    );
    expect(f!.missing).toBeUndefined();
    const up = all(snap).find((x) => x.id === 'upgrade.stuck')!;
    expect(up.causedBy).toContain(
      fingerprint(snap.cluster, 'capi.remediation-exhausted', {
        kind: 'Machine',
        namespace: 'tkg-system',
        name: 'c1-cp-abc12',
      }),
    );
    expect(up.cause).toContain('KubeadmControlPlane gave up remediating c1-cp-abc12 (maxRetry)');
  });
  it('quiet when KCP deferred it only (RetryPeriodSeconds) or the machine is healthy', () => {
    const deferred = buildSnapshot({
      capi: {
        machines: [
          gaveUp(
            "KubeadmControlPlane can't remediate this machine because the operation already failed in the latest 1h0m0s (RetryPeriodSeconds)",
          ),
        ],
      },
    });
    expect(capiRemediationExhaustedAnalyzer.analyze(buildContext(deferred))).toEqual([]);
    expect(
      capiRemediationExhaustedAnalyzer.analyze(
        buildContext(
          buildSnapshot({ capi: { machines: [machine({ name: 'ok', controlPlane: true, nodeName: 'ok' })] } }),
        ),
      ),
    ).toEqual([]);
  });
});

describe('capi.remediation-paused and the loop breaker', () => {
  it('the S0 remediation loop (etcd leader unreachable) proposes pausing the control-plane MachineHealthCheck', () => {
    const [f] = capiRemediationLoopingAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f!.remediations).toEqual([
      expect.objectContaining({
        action: 'mhc.pause-remediation',
        params: { namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' },
        label: 'Pause remediation: it-tkg-mgmt-rg44c',
      }),
    ]);
    expect(f!.remediations[0]!.risk).toContain(
      'replacements cannot fix an etcd leader that does not answer (it-tkg-mgmt-rg44c-sbv4f)',
    );
  });

  it('no pause is proposed when the MachineHealthCheck is already paused', () => {
    const snap = s0Snapshot();
    snap.capi.machineHealthChecks[0]!.metadata.annotations = { 'cluster.x-k8s.io/paused': '' };
    expect(capiRemediationLoopingAnalyzer.analyze(buildContext(snap))[0]!.remediations).toEqual([]);
  });

  it('paused by the bot: info with since-when from the annotation value, and the resume (undo) proposed with that exact value', () => {
    const value = 'k8s-health-bot 2023-11-30T16:10:00.000Z request 01HQ7ZP3';
    const check = {
      ...mhc('c1-md-0-mhc'),
      metadata: { name: 'c1-md-0-mhc', namespace: 'ns1', annotations: { 'cluster.x-k8s.io/paused': value } },
    };
    const snap = buildSnapshot({
      nodes: [node('m-a')],
      capi: { machineHealthChecks: [check], machines: [mdMachine('m-a')] },
    });
    const [f] = capiRemediationPausedAnalyzer.analyze(buildContext(snap));
    expect(f).toMatchObject({
      severity: 'info',
      since: '2023-11-30T16:10:00.000Z',
      subject: { kind: 'MachineHealthCheck', namespace: 'ns1', name: 'c1-md-0-mhc' },
    });
    expect(f!.title).toBe(
      'Remediation paused on MachineHealthCheck ns1/c1-md-0-mhc since 2023-11-30T16:10:00.000Z (by k8s-health-bot)',
    );
    expect(f!.remediations).toEqual([
      expect.objectContaining({
        action: 'mhc.resume-remediation',
        params: { namespace: 'ns1', name: 'c1-md-0-mhc', value },
      }),
    ]);
  });

  it('someone else paused it (empty value, no Paused condition): no resume proposed, since-when missing; a machine left unhealthy makes it a warning', () => {
    const check = {
      ...mhc('c1-md-0-mhc'),
      metadata: { name: 'c1-md-0-mhc', namespace: 'ns1', annotations: { 'cluster.x-k8s.io/paused': '' } },
    };
    const snap = buildSnapshot({
      nodes: [node('m-a', { ready: 'Unknown', sinceMin: 30 })],
      capi: { machineHealthChecks: [check], machines: [mdMachine('m-a')] },
    });
    const [f] = capiRemediationPausedAnalyzer.analyze(buildContext(snap));
    expect(f!.severity).toBe('warning');
    expect(f!.remediations).toEqual([]);
    expect(f!.missing).toEqual(['since when: neither a Paused condition nor a time in the annotation value']);
    expect(f!.evidence).toContain(
      'Machine ns1/m-a is unhealthy (Node m-a Ready Unknown reason=NodeStatusUnknown) and is not being replaced',
    );
  });

  it('machines with skip-remediation are listed under their MachineHealthCheck; quiet when nothing is paused or skipped', () => {
    const snap = buildSnapshot({
      capi: {
        machineHealthChecks: [mhc('c1-md-0-mhc')],
        machines: [mdMachine('m-a', { annotations: { 'cluster.x-k8s.io/skip-remediation': '' } }), mdMachine('m-b')],
      },
    });
    const [f] = capiRemediationPausedAnalyzer.analyze(buildContext(snap));
    expect(f!.title).toBe('MachineHealthCheck ns1/c1-md-0-mhc skips 1 machine(s)');
    expect(
      capiRemediationPausedAnalyzer.analyze(
        buildContext(
          buildSnapshot({ capi: { machineHealthChecks: [mhc('c1-md-0-mhc')], machines: [mdMachine('m-b')] } }),
        ),
      ),
    ).toEqual([]);
  });
});

describe('capi.drain-timeout-unset (proactive)', () => {
  const world = (md: KubeObject, allowed: number) =>
    buildSnapshot({
      pods: [appPod('shop', 'db-0', 'm-a', { app: 'db' })],
      podDisruptionBudgets: [
        pdb('shop', 'db', {
          matchLabels: { app: 'db' },
          minAvailable: 1,
          allowed,
          expected: 1,
          healthy: 1,
          desired: 1,
        }),
      ],
      capi: { machineDeployments: [md], machines: [mdMachine('m-a')] },
    });
  it('info when no drain timeout is set and a budget allowing no disruption covers a pod on one of its nodes', () => {
    const [f] = capiDrainTimeoutUnsetAnalyzer.analyze(buildContext(world(machineDeployment(), 0)));
    expect(f).toMatchObject({
      severity: 'info',
      subject: { kind: 'MachineDeployment', namespace: 'ns1', name: 'c1-md-0' },
      remediations: [],
    });
    expect(f!.evidence[0]).toBe(
      'MachineDeployment ns1/c1-md-0: spec.template.spec.deletion.nodeDrainTimeoutSeconds not set (0 = Cluster API drains without limit)',
    );
  });
  it.each([
    ['a drain timeout is set', machineDeployment({ drainTimeoutSeconds: 600 }), 0],
    ['the budget allows a disruption (benign)', machineDeployment(), 1],
  ])('quiet: %s', (_n, md, allowed) =>
    expect(capiDrainTimeoutUnsetAnalyzer.analyze(buildContext(world(md, allowed)))).toEqual([]),
  );
});
