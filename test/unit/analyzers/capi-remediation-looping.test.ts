import { describe, expect, it } from '@jest/globals';
import { capiRemediationLoopingAnalyzer } from '../../../src/diagnose/analyzers/capi-remediation-looping.js';
import type { HistoryView } from '../../../src/diagnose/history.js';
import { ago, buildContext, buildSnapshot, kcp, machine, s0Snapshot } from '../../support/build-snapshot.js';

const ann = (v: string) => ({ 'controlplane.cluster.x-k8s.io/remediation-for': v });
const run = (m: ReturnType<typeof machine>, history?: HistoryView) =>
  capiRemediationLoopingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [m] } }), history));

describe('capi.remediation-looping', () => {
  it('seed S0: retryCount 819 on a control-plane machine is critical, caused by the etcd leader', () => {
    const [f] = capiRemediationLoopingAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({
      severity: 'critical',
      subject: { kind: 'Machine', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c-vrkvg' },
    });
    expect(f!.evidence[0]).toBe(
      'annotation controlplane.cluster.x-k8s.io/remediation-for={"machine":"it-tkg-mgmt-rg44c-gn5sw","timestamp":"2023-11-30T14:39:33Z","retryCount":819}',
    );
    expect(f!.causedBy).toHaveLength(1);
  });

  it.each([
    [
      'retryCount 1 on a control-plane machine',
      machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":1}') }),
      'warning',
    ],
    ['retryCount 5 on a worker', machine({ name: 'm', annotations: ann('{"machine":"x","retryCount":5}') }), 'warning'],
    [
      'retryCount 3 on a control-plane machine',
      machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":3}') }),
      'critical',
    ],
  ])('%s → %s', (_n, m, severity) => expect(run(m)[0]?.severity).toBe(severity));

  it.each([
    [
      'first remediation (retryCount 0)',
      machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":0}') }),
    ],
    ['malformed JSON (no throw)', machine({ name: 'm', controlPlane: true, annotations: ann('{not json') })],
    ['no annotation', machine({ name: 'm', controlPlane: true })],
  ])('quiet: %s', (_n, m) => expect(run(m)).toEqual([]));

  it('history: replacements seen in earlier scans count as retries when the annotation is unreadable', () => {
    const sighting = (name: string) => ({
      namespace: 'tkg-system',
      name,
      owner: 'KubeadmControlPlane/it-tkg-mgmt-rg44c',
      controlPlane: true,
      deleting: false,
    });
    const history: HistoryView = {
      scans: [
        { at: ago(40), machines: [sighting('r1')], rollouts: [], findings: [] },
        { at: ago(25), machines: [sighting('r2')], rollouts: [], findings: [] },
        { at: ago(10), machines: [sighting('r3')], rollouts: [], findings: [] },
      ],
    };
    const [f] = run(machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x"}') }), history);
    expect(f).toMatchObject({ severity: 'critical' });
    expect(f!.evidence.join('\n')).toMatch(
      /earlier scans saw 3 replacement machine\(s\).*vanish without ever getting a Node: r1, r2, r3/,
    );
  });

  // Defect class 6: one remediation is not a loop.
  it('a successful remediation (retryCount 1, replacement Running with a Ready Node) is not a loop', () => {
    const replacement = machine({
      name: 'cp-xdfcr',
      controlPlane: true,
      nodeName: 'cp-xdfcr',
      v1beta2: true,
      createdMinutesAgo: 40,
      annotations: ann('{"machine":"cp-8w2bs","timestamp":"2023-11-30T16:20:00Z","retryCount":1}'),
    });
    expect(run(replacement)).toEqual([]);
  });
  it('retryCount 1 whose replacement is still inside nodeStartupTimeout is not a loop yet', () => {
    expect(
      run(
        machine({
          name: 'm',
          controlPlane: true,
          phase: 'Provisioning',
          createdMinutesAgo: 4,
          annotations: ann('{"machine":"x","retryCount":1}'),
        }),
      ),
    ).toEqual([]);
  });
  it('retryCount 2 with the replacement still starting: two replacements already failed → warning, its own outcome missing', () => {
    const [f] = run(
      machine({
        name: 'm',
        controlPlane: true,
        phase: 'Provisioning',
        createdMinutesAgo: 4,
        annotations: ann('{"machine":"x","retryCount":2}'),
      }),
    );
    expect(f?.severity).toBe('warning');
    expect(f?.title).toContain('2 replacements failed in a row');
  });
  it('a healthy replacement ends the chain even at a high retryCount', () => {
    expect(
      run(
        machine({ name: 'm', controlPlane: true, nodeName: 'm', annotations: ann('{"machine":"x","retryCount":7}') }),
      ),
    ).toEqual([]);
  });
  it('a replacement whose Node is not in the snapshot and reports no condition: outcome unknown, said in missing', () => {
    const m = machine({
      name: 'm',
      controlPlane: true,
      nodeName: 'm',
      annotations: ann('{"machine":"x","retryCount":3}'),
    });
    m.status.conditions = [];
    const [f] = run(m);
    expect(f?.severity).toBe('critical');
    expect(f?.missing?.join('\n')).toContain('whether replacement m is healthy');
  });
  it('maxRetry reached is said (KCP will not remediate again)', () => {
    const snap = buildSnapshot({
      capi: {
        machines: [machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":3}') })],
        kubeadmControlPlanes: [
          {
            ...kcp({ v1beta2: true }),
            spec: { replicas: 3, remediation: { maxRetry: 3, minHealthyPeriodSeconds: 7200 } },
          },
        ],
      },
    });
    const [f] = capiRemediationLoopingAnalyzer.analyze(buildContext(snap));
    expect(f!.evidence.join('\n')).toContain('maxRetry 3 reached');
    expect(f!.cause).toContain('minHealthyPeriod (2h)');
  });
  it('history: old machines replaced by a rolling upgrade (they had Nodes) are not failed replacements', () => {
    const sighting = (name: string) => ({
      namespace: 'tkg-system',
      name,
      owner: 'KubeadmControlPlane/it-tkg-mgmt-rg44c',
      controlPlane: true,
      deleting: false,
      nodeName: name,
    });
    const history: HistoryView = {
      scans: [
        { at: ago(30), machines: [sighting('old1'), sighting('old2'), sighting('old3')], rollouts: [], findings: [] },
      ],
    };
    expect(
      run(
        machine({
          name: 'm',
          controlPlane: true,
          phase: 'Provisioning',
          createdMinutesAgo: 4,
          annotations: ann('{"machine":"x","retryCount":0}'),
        }),
        history,
      ),
    ).toEqual([]);
  });
});
