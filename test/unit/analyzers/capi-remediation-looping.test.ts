import { describe, expect, it } from '@jest/globals';
import { capiRemediationLoopingAnalyzer } from '../../../src/diagnose/analyzers/capi-remediation-looping.js';
import type { HistoryView } from '../../../src/diagnose/history.js';
import { ago, buildContext, buildSnapshot, machine, s0Snapshot } from '../../support/build-snapshot.js';

const ann = (v: string) => ({ 'controlplane.cluster.x-k8s.io/remediation-for': v });
const run = (m: ReturnType<typeof machine>, history?: HistoryView) =>
  capiRemediationLoopingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [m] } }), history));

describe('capi.remediation-looping', () => {
  it('seed S0: retryCount 819 on a control-plane machine is critical, caused by the etcd leader', () => {
    const [f] = capiRemediationLoopingAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({ severity: 'critical', subject: { kind: 'Machine', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c-vrkvg' } });
    expect(f!.evidence[0]).toBe('annotation controlplane.cluster.x-k8s.io/remediation-for={"machine":"it-tkg-mgmt-rg44c-gn5sw","timestamp":"2023-11-30T14:39:33Z","retryCount":819}');
    expect(f!.causedBy).toHaveLength(1);
  });

  it.each([
    ['retryCount 1 on a control-plane machine', machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":1}') }), 'warning'],
    ['retryCount 5 on a worker', machine({ name: 'm', annotations: ann('{"machine":"x","retryCount":5}') }), 'warning'],
    ['retryCount 3 on a control-plane machine', machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":3}') }), 'critical'],
  ])('%s → %s', (_n, m, severity) => expect(run(m)[0]?.severity).toBe(severity));

  it.each([
    ['first remediation (retryCount 0)', machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x","retryCount":0}') })],
    ['malformed JSON (no throw)', machine({ name: 'm', controlPlane: true, annotations: ann('{not json') })],
    ['no annotation', machine({ name: 'm', controlPlane: true })],
  ])('quiet: %s', (_n, m) => expect(run(m)).toEqual([]));

  it('history: replacements seen in earlier scans count as retries when the annotation is unreadable', () => {
    const sighting = (name: string) => ({ namespace: 'tkg-system', name, owner: 'KubeadmControlPlane/it-tkg-mgmt-rg44c', controlPlane: true, deleting: false });
    const history: HistoryView = {
      scans: [
        { at: ago(40), machines: [sighting('r1')], rollouts: [], findings: [] },
        { at: ago(25), machines: [sighting('r2')], rollouts: [], findings: [] },
        { at: ago(10), machines: [sighting('r3')], rollouts: [], findings: [] },
      ],
    };
    const [f] = run(machine({ name: 'm', controlPlane: true, annotations: ann('{"machine":"x"}') }), history);
    expect(f).toMatchObject({ severity: 'critical' });
    expect(f!.evidence.join('\n')).toMatch(/earlier scans saw 3 replaced machine\(s\).*r1, r2, r3/);
  });
});
