import { describe, expect, it } from '@jest/globals';
import { controlPlaneComponentOf, scanControlPlaneLog } from '../../../src/cluster/dump/scan-control-plane-log.js';

describe('scanControlPlaneLog', () => {
  it('etcd: a startup election that ends with a leader, in zap JSON (etcd 3.5)', () => {
    const log = [
      '==== START logs for container etcd of pod kube-system/etcd-minikube ====',
      '{"level":"info","ts":"2024-11-17T10:19:25.128Z","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"aec36adc501070cc is starting a new election at term 1"}',
      '{"level":"info","ts":"2024-11-17T10:19:25.129Z","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"aec36adc501070cc became leader at term 2"}',
      '{"level":"info","ts":"2024-11-17T10:19:25.129Z","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"raft.node: aec36adc501070cc elected leader aec36adc501070cc at term 2"}',
      '==== END logs for container etcd of pod kube-system/etcd-minikube ====',
    ].join('\n');
    const signals = scanControlPlaneLog(log, 'etcd');
    expect(signals.map((s) => s.kind)).toEqual(['no-leader', 'leader', 'leader']);
    expect(signals[2]).toMatchObject({ time: '2024-11-17T10:19:25.129Z' });
  });

  it('etcd: the runtime wrapper is removed and its time kept (docker json-file, CRI)', () => {
    const docker =
      '{"log":"raft2020/06/21 05:43:24 INFO: e121085cb2a6a09a became candidate at term 9781\\n","stream":"stderr","time":"2020-06-21T05:43:24.141374961Z"}';
    const cri =
      '2024-11-15T16:08:32.012211954+08:00 stderr F {"level":"warn","ts":"2024-11-15T08:08:32.011Z","msg":"serving /health false; no leader"}';
    expect(scanControlPlaneLog(`${docker}\n${cri}`, 'etcd')).toEqual([
      {
        kind: 'no-leader',
        line: 'raft2020/06/21 05:43:24 INFO: e121085cb2a6a09a became candidate at term 9781',
        time: '2020-06-21T05:43:24.141374961Z',
      },
      {
        kind: 'no-leader',
        line: '{"level":"warn","ts":"2024-11-15T08:08:32.011Z","msg":"serving /health false; no leader"}',
        time: '2024-11-15T16:08:32.012211954+08:00',
      },
    ]);
  });

  it('etcd: NOSPACE and capnslog times; lines that say nothing about etcd are dropped', () => {
    const log = [
      '2020-12-09 23:13:30.509732 W | etcdserver: failed to apply request "header:<ID:17070461351733445769 > lease_grant:<ttl:20-second id:6ce67627fe1b4488>" with response "" took (2.78µs) to execute, err is etcdserver: no space',
      '2020-12-09 23:13:31.000000 I | etcdserver: saved snapshot at index 100',
    ].join('\n');
    expect(scanControlPlaneLog(log, 'etcd')).toEqual([
      expect.objectContaining({ kind: 'nospace', time: '2020-12-09T23:13:30.509732Z' }),
    ]);
  });

  it('kube-apiserver: etcd errors and its readyz failure; only the last 5 of a kind are kept', () => {
    const lines = Array.from(
      { length: 8 },
      (_, i) => `E0429 15:54:5${i}.235735       1 watcher.go:214] watch chan error: etcdserver: no leader`,
    );
    lines.push(
      'I0607 12:00:00.000000       1 healthz.go:257] [-]etcd failed: error getting data from etcd: context deadline exceeded',
    );
    lines.push('I0607 12:00:01.000000       1 controller.go:1] Starting controller');
    const signals = scanControlPlaneLog(lines.join('\n'), 'kube-apiserver');
    expect(signals.map((s) => s.kind)).toEqual([
      'etcd-unavailable',
      'etcd-unavailable',
      'etcd-unavailable',
      'etcd-unavailable',
      'etcd-unavailable',
      'readyz-etcd-failed',
    ]);
    expect(signals[0]!.line).toContain('15:54:53');
  });

  it('components from kubeadm static pod names', () => {
    expect(
      ['etcd-cp-1', 'kube-apiserver-cp-1', 'etcd', 'kube-controller-manager-cp-1', 'etcdbackup-x'].map(
        controlPlaneComponentOf,
      ),
    ).toEqual(['etcd', 'kube-apiserver', 'etcd', undefined, undefined]);
  });
});
