import { describe, expect, it } from '@jest/globals';
import { cniPodNotRunningAnalyzer } from '../../../src/diagnose/analyzers/cni-pod-not-running.js';
import { buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { node, pod } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => cniPodNotRunningAnalyzer.analyze(buildContext(s));
const agent = (n: string, o = {}) =>
  pod('kube-system', `antrea-agent-${n.padEnd(5, 'x').slice(0, 5)}`, {
    nodeName: n,
    labels: { app: 'antrea', component: 'antrea-agent' },
    ...o,
  });
const ds = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { namespace: 'kube-system', name: 'antrea-agent' },
  status: { desiredNumberScheduled: 2, currentNumberScheduled: 1, numberReady: 1 },
};

describe('cni.pod-not-running', () => {
  it.each([
    ['no antrea/calico in the cluster at all (another CNI)', { nodes: [node('w1')] }],
    ['agent Running on every node', { nodes: [node('w1'), node('w2')], pods: [agent('w1'), agent('w2')] }],
    [
      'node joined 20 s ago, agent not scheduled yet',
      { nodes: [node('w1'), node('w2', { createdMin: 0.3 })], pods: [agent('w1')], daemonSets: [ds] },
    ],
    [
      'agent Pending for 10 s',
      {
        nodes: [node('w1')],
        pods: [
          agent('w1', {
            phase: 'Pending',
            creationTimestamp: new Date(Date.parse('2023-11-30T17:00:00Z') - 10000).toISOString(),
          }),
        ],
      },
    ],
    [
      'kubelet stopped (status stale): node.not-ready covers it',
      { nodes: [node('w1'), node('w2', { ready: 'Unknown', sinceMin: 30 })], pods: [agent('w1')], daemonSets: [ds] },
    ],
  ])('quiet: %s', (_l, parts) => {
    expect(run(buildSnapshot(parts))).toEqual([]);
  });

  it('agent missing on a node: subject is the node', () => {
    const f = run(buildSnapshot({ nodes: [node('w1'), node('w2')], pods: [agent('w1')], daemonSets: [ds] }));
    expect(f.map((x) => x.subject)).toEqual([{ kind: 'Node', name: 'w2' }]);
    expect(f[0]?.title).toContain('antrea-agent pod missing');
  });

  it('agent in ImagePullBackOff', () => {
    const [f] = run(
      buildSnapshot({
        nodes: [node('w1')],
        pods: [
          agent('w1', {
            phase: 'Pending',
            containers: [
              {
                name: 'antrea-agent',
                ready: false,
                restartCount: 0,
                waiting: {
                  reason: 'ImagePullBackOff',
                  message: 'Back-off pulling image "localhost:5000/tkg/packages/core/antrea"',
                },
              },
            ],
          }),
        ],
      }),
    );
    expect(f?.severity).toBe('warning');
    expect(f?.evidence[0]).toContain('reason=ImagePullBackOff');
  });

  it('agent Running but its container in CrashLoopBackOff is not running (defect class 10)', () => {
    const crashing = agent('w1', {
      phase: 'Running',
      containers: [
        {
          name: 'antrea-agent',
          ready: false,
          restartCount: 9,
          waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' },
        },
      ],
    });
    const [f] = run(buildSnapshot({ nodes: [node('w1')], pods: [crashing] }));
    expect(f?.title).toBe('CNI on node w1: antrea-agent-w1xxx CrashLoopBackOff');
    expect(f?.evidence[0]).toContain('phase=Running, container waiting reason=CrashLoopBackOff');
  });

  it('other CNIs real captures show (weave-net on kURL, kindnet on kind): detected by label, missing agent reported', () => {
    const weave = (n: string) =>
      pod('kube-system', `weave-net-${n.padEnd(5, 'x').slice(0, 5)}`, {
        nodeName: n,
        labels: { name: 'weave-net' },
        ownerReferences: [{ kind: 'DaemonSet', name: 'weave-net' }],
      });
    const [f] = run(buildSnapshot({ nodes: [node('w1'), node('w2')], pods: [weave('w1')] }));
    expect([f?.subject.name, f?.title]).toEqual(['w2', 'CNI on node w2: weave-net pod missing']);
    const kindnet = (n: string) =>
      pod('kube-system', `kindnet-${n}`, {
        nodeName: n,
        labels: { app: 'kindnet', 'k8s-app': 'kindnet' },
        containers: [{ name: 'kindnet-cni', ready: true, restartCount: 0 }],
      });
    expect(run(buildSnapshot({ nodes: [node('w1'), node('w2')], pods: [kindnet('w1'), kindnet('w2')] }))).toEqual([]);
  });
});
