import { describe, expect, it } from '@jest/globals';
import { podStuckTerminatingAnalyzer } from '../../../src/diagnose/analyzers/pod-stuck-terminating.js';
import { ago, buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { node, pod, workerMachine } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => podStuckTerminatingAnalyzer.analyze(buildContext(s));
const cassandra = (o = {}) =>
  pod('cassandra', 'cassandra-0', {
    nodeName: 'w1',
    deletionTimestamp: ago(20),
    deletionGracePeriodSeconds: 180,
    reason: 'NodeLost',
    message: 'Node w1 which was running pod cassandra-0 is unresponsive',
    pvcNames: ['cassandra-data-cassandra-0'],
    ownerReferences: [{ kind: 'StatefulSet', name: 'cassandra', controller: true }],
    ...o,
  });
const dead = node('w1', { ready: 'Unknown', sinceMin: 30 });

describe('pod.stuck-terminating', () => {
  it.each([
    ['Terminating within its grace period', { nodes: [dead], pods: [cassandra({ deletionTimestamp: ago(4) })] }],
    [
      'Terminating on a Ready node (not NodeLost)',
      { nodes: [node('w1')], pods: [cassandra({ reason: undefined, message: undefined })] },
    ],
    [
      'deletionTimestamp in the future (clock skew)',
      { nodes: [dead], pods: [cassandra({ deletionTimestamp: ago(-30) })] },
    ],
  ])('quiet: %s', (_l, parts) => {
    expect(run(buildSnapshot(parts))).toEqual([]);
  });

  it('critical for a StatefulSet pod with a PVC; force-delete only while the node is not confirmed gone', () => {
    const [f] = run(
      buildSnapshot({ nodes: [dead], pods: [cassandra()], capi: { machines: [workerMachine('m1', { node: 'w1' })] } }),
    );
    expect(f?.severity).toBe('critical');
    expect(f?.subject).toEqual({ kind: 'Pod', namespace: 'cassandra', name: 'cassandra-0' });
    expect(f?.remediations.map((r) => r.action)).toEqual(['pod.force-delete']);
    expect(f?.remediations[0]?.params).toEqual({ namespace: 'cassandra', name: 'cassandra-0' });
  });

  it('warning for a plain pod; node gone (Machine Deleting) adds out-of-service on ≥1.28, node.delete before', () => {
    const plain = pod('web', 'nginx-1', { nodeName: 'w1', deletionTimestamp: ago(20), deletionGracePeriodSeconds: 30 });
    const [f] = run(
      buildSnapshot({
        nodes: [dead],
        pods: [plain],
        capi: { machines: [workerMachine('m1', { node: 'w1', deletingMin: 5 })] },
      }),
    );
    expect(f?.severity).toBe('warning');
    expect(f?.remediations.map((r) => [r.action, r.params])).toEqual([
      ['pod.force-delete', { namespace: 'web', name: 'nginx-1' }],
      ['node.out-of-service', { name: 'w1' }],
    ]);
    const old = node('w1', { ready: 'Unknown', sinceMin: 30, kubelet: 'v1.26.5' });
    // CAPI in use but no Machine references w1 any more: its Machine was deleted.
    const [g] = run(
      buildSnapshot({ nodes: [old], pods: [plain], capi: { machines: [workerMachine('other', { node: 'w9' })] } }),
    );
    expect(g?.remediations.map((r) => r.action)).toEqual(['pod.force-delete', 'node.delete']);
  });

  it('a powered-off VM (cloud provider shutdown taint) confirms the node gone without CAPI', () => {
    const off = node('w1', {
      ready: 'Unknown',
      sinceMin: 30,
      taints: [{ key: 'node.cloudprovider.kubernetes.io/shutdown', effect: 'NoSchedule' }],
    });
    const [f] = run(buildSnapshot({ nodes: [off], pods: [cassandra()] }));
    expect(f?.remediations.map((r) => r.action)).toEqual(['pod.force-delete', 'node.out-of-service']);
  });
});
