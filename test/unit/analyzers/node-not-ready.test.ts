import { describe, expect, it } from '@jest/globals';
import { nodeNotReadyAnalyzer } from '../../../src/diagnose/analyzers/node-not-ready.js';
import { ago, buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { CNI_MSG, mhc, node, pod, workerMachine } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => nodeNotReadyAnalyzer.analyze(buildContext(s));

describe('node.not-ready', () => {
  it.each([
    ['Ready node', { nodes: [node('w1')] }],
    ['NotReady for 30 s (under notReadyGraceSeconds)', { nodes: [node('w1', { ready: 'Unknown', sinceMin: 0.5 })] }],
    ['node without status', { nodes: [{ metadata: { name: 'w1' } }] }],
  ])('quiet: %s', (_label, parts) => {
    expect(run(buildSnapshot(parts))).toEqual([]);
  });

  it('info while the MHC (v1beta1 timeout "5m0s") will replace it, with the time', () => {
    const [f] = run(
      buildSnapshot({
        nodes: [node('w1', { ready: 'Unknown', sinceMin: 2 })],
        capi: {
          machines: [workerMachine('c1-md-0-7d9f8-abcde', { node: 'w1' })],
          machineHealthChecks: [mhc('c1-md-0')],
        },
      }),
    );
    expect(f?.severity).toBe('info');
    expect(f?.subject).toEqual({ kind: 'Node', name: 'w1' });
    const at = new Date(Date.parse(ago(2)) + 300000).toISOString().slice(11, 16);
    expect(f?.title).toContain(`MachineHealthCheck ns1/c1-md-0 will replace it at ~${at}`);
    expect(f?.evidence[0]).toContain('reason=NodeStatusUnknown "Kubelet stopped posting node status."');
    expect(f?.remediations).toEqual([]);
  });

  it('v1beta2 MHC timeoutSeconds is read too', () => {
    const [f] = run(
      buildSnapshot({
        nodes: [node('w1', { ready: 'Unknown', sinceMin: 2 })],
        capi: {
          machines: [workerMachine('m1', { node: 'w1', v1beta2: true })],
          machineHealthChecks: [mhc('c1-md-0', { timeoutSeconds: 600 })],
        },
      }),
    );
    expect(f?.severity).toBe('info');
    expect(f?.evidence.join('\n')).toContain('timeout 10m');
  });

  it.each([
    ['the MHC timeout passed without replacement', { sinceMin: 20, mhcs: [mhc('c1-md-0')] }, 'should have replaced it'],
    ['no MHC covers it', { sinceMin: 20, mhcs: [] }, 'CAPI will not replace it'],
    [
      'the MHC may not remediate (maxUnhealthy)',
      { sinceMin: 2, mhcs: [mhc('c1-md-0', { allowed: false })] },
      'will not remediate',
    ],
  ])('warning when %s', (_l, o, text) => {
    const [f] = run(
      buildSnapshot({
        nodes: [node('w1', { ready: 'Unknown', sinceMin: o.sinceMin })],
        capi: { machines: [workerMachine('m1', { node: 'w1' })], machineHealthChecks: o.mhcs },
      }),
    );
    expect(f?.severity).toBe('warning');
    expect(f?.title).toContain(text);
  });

  it('critical when a pod is stuck Terminating on it; offers out-of-service only when confirmed gone', () => {
    const stuck = pod('db', 'cassandra-0', {
      nodeName: 'w1',
      deletionTimestamp: ago(20),
      deletionGracePeriodSeconds: 180,
      reason: 'NodeLost',
      pvcNames: ['data-cassandra-0'],
      ownerReferences: [{ kind: 'StatefulSet', name: 'cassandra' }],
    });
    const alive = run(
      buildSnapshot({
        nodes: [node('w1', { ready: 'Unknown', sinceMin: 30 })],
        pods: [stuck],
        capi: { machines: [workerMachine('m1', { node: 'w1' })] },
      }),
    );
    expect(alive[0]?.severity).toBe('critical');
    expect(alive[0]?.remediations).toEqual([]);
    const gone = run(
      buildSnapshot({
        nodes: [node('w1', { ready: 'Unknown', sinceMin: 30 })],
        pods: [stuck],
        capi: { machines: [workerMachine('m1', { node: 'w1', deletingMin: 3 })] },
      }),
    );
    expect(gone[0]?.remediations.map((r) => r.action)).toEqual(['node.out-of-service']);
  });

  it.each([
    ['a control-plane node', node('cp1', { ready: 'Unknown', sinceMin: 30, cp: true })],
    ['a node whose CNI is not initialized', node('w1', { ready: 'False', message: CNI_MSG, sinceMin: 30 })],
  ])('also reports %s (the specific analyzers add their diagnosis on top)', (_l, n) => {
    const [f] = run(buildSnapshot({ nodes: [n] }));
    expect(f?.severity).toBe('warning');
    expect(f?.evidence[0]).toContain(`Ready=${n.status.conditions[0].status}`);
  });

  it('clock skew: a transition time in the future reads as 0s and stays quiet (under grace)', () => {
    expect(run(buildSnapshot({ nodes: [node('w1', { ready: 'Unknown', sinceMin: -10 })] }))).toEqual([]);
  });

  it('without any Cluster API data it says it cannot tell whether a MachineHealthCheck will replace the node', () => {
    const [f] = run(buildSnapshot({ nodes: [node('kind-worker', { ready: 'False', sinceMin: 30 })] }));
    expect([f?.severity, f?.missing]).toEqual([
      'warning',
      ['Cluster API Machines not read: whether a MachineHealthCheck will replace the node is not known'],
    ]);
  });
});
