import { describe, expect, it } from '@jest/globals';
import { volumeMultiAttachAnalyzer } from '../../../src/diagnose/analyzers/volume-multi-attach.js';
import { ago, buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { event, node, pod, workerMachine } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => volumeMultiAttachAnalyzer.analyze(buildContext(s));
const PV = 'pvc-91600a74-8d16-11e9-b070-005056a2a261';
const pvc = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { namespace: 'cassandra', name: 'cassandra-data-cassandra-0' },
  spec: { volumeName: PV, accessModes: ['ReadWriteOnce'] },
};
const va = (nodeName: string) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttachment',
  metadata: { name: 'csi-abc' },
  spec: { attacher: 'csi.vsphere.vmware.com', nodeName, source: { persistentVolumeName: PV } },
  status: { attached: true },
});
const waiting = pod('cassandra', 'cassandra-0', {
  nodeName: 'w2',
  phase: 'Pending',
  pvcNames: ['cassandra-data-cassandra-0'],
});
const multi = event({
  reason: 'FailedAttachVolume',
  source: 'attachdetach-controller',
  message: `Multi-Attach error for volume "${PV}" Volume is already exclusively attached to one node and can't be attached to another`,
  involvedObject: { kind: 'Pod', namespace: 'cassandra', name: 'cassandra-0' },
});

describe('volume.multi-attach', () => {
  it.each([
    [
      'attached to a Ready node',
      {
        nodes: [node('w1'), node('w2')],
        volumeAttachments: [va('w1')],
        persistentVolumeClaims: [pvc],
        pods: [waiting],
      },
    ],
    [
      'attached to a dead node but nobody waits for it',
      {
        nodes: [node('w1', { ready: 'Unknown', sinceMin: 30 })],
        volumeAttachments: [va('w1')],
        persistentVolumeClaims: [pvc],
      },
    ],
    [
      'VolumeAttachment without status',
      {
        nodes: [node('w1', { ready: 'Unknown', sinceMin: 30 })],
        volumeAttachments: [{ metadata: { name: 'x' }, spec: {} }],
      },
    ],
  ])('quiet: %s', (_l, parts) => {
    expect(run(buildSnapshot(parts))).toEqual([]);
  });

  it('critical from the Multi-Attach event alone; subject is the PVC; explains the 6-minute timer', () => {
    const [f] = run(buildSnapshot({ pods: [waiting], persistentVolumeClaims: [pvc], events: [multi] }));
    expect(f?.severity).toBe('critical');
    expect(f?.subject).toEqual({
      kind: 'PersistentVolumeClaim',
      namespace: 'cassandra',
      name: 'cassandra-data-cassandra-0',
    });
    expect(f?.evidence.join('\n')).toContain('Multi-Attach error for volume');
    expect(f?.cause).toContain('6 minutes');
  });

  it('VolumeAttachment on a NotReady node + pending pod elsewhere; node gone → node release offered', () => {
    const old = pod('cassandra', 'cassandra-0-old', {
      nodeName: 'w1',
      deletionTimestamp: ago(20),
      pvcNames: ['cassandra-data-cassandra-0'],
    });
    const s = buildSnapshot({
      nodes: [node('w1', { ready: 'Unknown', sinceMin: 30 }), node('w2')],
      volumeAttachments: [va('w1')],
      persistentVolumeClaims: [pvc],
      pods: [waiting, old],
      capi: { machines: [workerMachine('m1', { node: 'w1', deletingMin: 10 })] },
    });
    const [f] = run(s);
    expect(f?.title).toContain('stuck on node w1');
    expect(f?.remediations.map((r) => [r.action, r.params])).toEqual([
      ['pod.force-delete', { namespace: 'cassandra', name: 'cassandra-0-old' }],
      ['node.out-of-service', { name: 'w1' }],
    ]);
  });
});
