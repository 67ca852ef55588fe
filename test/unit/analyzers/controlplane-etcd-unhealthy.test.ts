import { describe, expect, it } from '@jest/globals';
import { controlplaneEtcdUnhealthyAnalyzer } from '../../../src/diagnose/analyzers/controlplane-etcd-unhealthy.js';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { ago, buildContext, buildSnapshot, etcd, kcp, machine } from '../../support/build-snapshot.js';

/** A v1beta2 KCP whose EtcdClusterHealthy condition (and Available) say what KCP saw of etcd. */
const kcpWith = (
  status: string,
  reason: string,
  message = '',
  available?: { status: string; message: string },
): KubeObject => {
  const k = kcp({ v1beta2: true, ready: 3, updated: 3 });
  k.apiVersion = 'controlplane.cluster.x-k8s.io/v1beta2';
  k.status.conditions = [
    { type: 'EtcdClusterHealthy', status, reason, message, observedGeneration: 1, lastTransitionTime: ago(12) },
    ...(available
      ? [
          {
            type: 'Available',
            status: available.status,
            reason: 'NotAvailable',
            message: available.message,
            observedGeneration: 1,
            lastTransitionTime: ago(12),
          },
        ]
      : []),
  ];
  return k;
};
const member = (name: string, status: string) => {
  const m = machine({ name, controlPlane: true, nodeName: name, v1beta2: true });
  m.status.conditions.push({
    type: 'EtcdMemberHealthy',
    status,
    reason: status === 'True' ? 'Healthy' : 'NotHealthy',
    message: status === 'True' ? '' : 'Etcd member reports alarms: NOSPACE',
    observedGeneration: 3,
    lastTransitionTime: ago(12),
  });
  return m;
};
const run = (
  k: KubeObject,
  machines = [member('cp-a', 'True'), member('cp-b', 'True'), member('cp-c', 'True')],
  withEtcd = false,
) =>
  controlplaneEtcdUnhealthyAnalyzer.analyze(
    buildContext(
      buildSnapshot({
        capi: { kubeadmControlPlanes: [k], machines },
        ...(withEtcd ? { etcd: etcd([{ id: '1', name: 'cp-a', ip: '10.0.0.1', status: { leader: '1' } }]) } : {}),
      }),
    ),
  );

describe('controlplane.etcd-unhealthy (KCP conditions as etcd evidence when etcd was not queried)', () => {
  it('EtcdClusterHealthy=False with 2 of 3 members healthy → warning, missing says etcd was not queried', () => {
    const [f] = run(kcpWith('False', 'NotHealthy', '* Machine cp-c: Etcd member reports alarms: NOSPACE'), [
      member('cp-a', 'True'),
      member('cp-b', 'True'),
      member('cp-c', 'False'),
    ]);
    expect(f).toMatchObject({
      severity: 'warning',
      section: 'etcd',
      subject: { kind: 'KubeadmControlPlane', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' },
      remediations: [],
    });
    expect(f!.missing?.[0]).toContain('etcd not queried');
    expect(f!.evidence.join('\n')).toContain(
      'Machine tkg-system/cp-c: condition EtcdMemberHealthy=False reason=NotHealthy',
    );
    expect(f!.evidence.join('\n')).toContain('2 of 3 control-plane Machines report EtcdMemberHealthy=True');
  });
  it('1 of 3 members healthy → critical (quorum lost)', () => {
    const [f] = run(kcpWith('False', 'NotHealthy'), [
      member('cp-a', 'True'),
      member('cp-b', 'False'),
      member('cp-c', 'False'),
    ]);
    expect(f?.severity).toBe('critical');
  });
  it('KCP Available=False naming etcd quorum → critical even without Machine conditions', () => {
    const [f] = run(
      kcpWith('False', 'NotHealthy', '', {
        status: 'False',
        message: '* 1 of 3 etcd members is healthy, at least 2 required for etcd quorum',
      }),
      [],
    );
    expect(f?.severity).toBe('critical');
  });
  it('EtcdClusterHealthy=Unknown (KCP could not inspect etcd) → info: unknown, not healthy', () => {
    const [f] = run(kcpWith('Unknown', 'ConnectionDown', 'Remote connection not established yet'));
    expect(f?.severity).toBe('info');
    expect(f?.title).toContain('cannot tell');
  });
  it('a v1beta1 KCP carrying the v1beta2 conditions under status.v1beta2 is read the same way', () => {
    const k = kcp({ ready: 3, updated: 3 });
    k.apiVersion = 'controlplane.cluster.x-k8s.io/v1beta1';
    k.status.conditions = [{ type: 'EtcdClusterHealthy', status: 'True' }];
    k.status.v1beta2 = {
      conditions: [{ type: 'EtcdClusterHealthy', status: 'False', reason: 'NotHealthy', message: 'x' }],
    };
    expect(run(k)[0]?.severity).toBe('warning');
  });
  it.each([
    ['EtcdClusterHealthy=True', run(kcpWith('True', 'Healthy'))],
    ['no EtcdClusterHealthy condition (external etcd)', run(kcp({ v1beta2: true }))],
    ['etcd was queried directly: the etcd.* analyzers judge', run(kcpWith('False', 'NotHealthy'), undefined, true)],
  ])('quiet: %s', (_n, fs) => expect(fs).toEqual([]));
});
