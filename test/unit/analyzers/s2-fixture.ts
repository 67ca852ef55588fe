import type { PodProjection } from '../../../src/cluster/snapshot.js';
import { buildSnapshot, etcd, kcp, machine, node } from '../../support/build-snapshot.js';

const pod = (namespace: string, name: string, nodeName: string, mem: number, rs?: string): PodProjection => ({
  namespace,
  name,
  nodeName,
  phase: 'Running',
  pvcNames: [],
  conditions: [],
  containers: [],
  memoryRequestBytes: mem,
  ownerReferences: rs ? [{ kind: 'ReplicaSet', name: rs }] : [],
});

/**
 * Seed S2 in miniature: upgrade to v1.28; new CP machine cp3 Running, its node Ready with ROLES <none>, learner member.
 */
export function s2Snapshot(newMachineMinutesAgo = 90) {
  return buildSnapshot({
    nodes: [
      node('cp0', { controlPlane: true }),
      node('cp1', { controlPlane: true }),
      node('cp2', { controlPlane: true }),
      node('cp3'),
    ],
    pods: [
      pod('kube-system', 'etcd-cp0', 'cp0', 100),
      pod('kube-system', 'etcd-cp1', 'cp1', 100),
      pod('kube-system', 'etcd-cp2', 'cp2', 100),
      pod('kube-system', 'coredns-abc', 'cp0', 10 * 2 ** 30, 'coredns-5d78c9869d'),
      pod('shop', 'cache-7f9c5-x1', 'cp0', 4 * 2 ** 30, 'cache-7f9c5'),
      pod('shop', 'cache-7f9c5-x2', 'cp1', 4 * 2 ** 30, 'cache-7f9c5'),
      pod('shop', 'web-66b8d-a', 'cp2', 2 ** 30, 'web-66b8d'),
      pod('shop', 'big-on-worker', 'w0', 64 * 2 ** 30, 'big-1234567'),
    ],
    deployments: [{ metadata: { name: 'cache', namespace: 'shop' }, spec: { replicas: 2 } }],
    etcd: etcd([
      { id: '1', name: 'cp0', ip: '10.0.0.1', status: { leader: '1', applied: '10' } },
      { id: '2', name: 'cp1', ip: '10.0.0.2', status: { leader: '1', applied: '10' } },
      { id: '3', name: 'cp2', ip: '10.0.0.3', status: { leader: '1', applied: '10' } },
      { id: '4', name: 'cp3', ip: '10.0.0.4', learner: true, status: { leader: '1', applied: '2' } },
    ]),
    capi: {
      kubeadmControlPlanes: [kcp({ replicas: 3, version: 'v1.28.8', updated: 1, ready: 3 })],
      machines: [
        ...['cp0', 'cp1', 'cp2'].map((n, k) =>
          machine({
            name: n,
            controlPlane: true,
            nodeName: n,
            version: 'v1.27.5',
            addresses: [`10.0.0.${k + 1}`],
            createdMinutesAgo: 5000,
          }),
        ),
        machine({
          name: 'cp3',
          controlPlane: true,
          nodeName: 'cp3',
          version: 'v1.28.8',
          addresses: ['10.0.0.4'],
          createdMinutesAgo: newMachineMinutesAgo,
        }),
      ],
    },
  });
}
