import type { Analyzer } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { formatAge } from '../facts/age.js';
import { createDeletionAnalyzer } from '../facts/create-deletion-analyzer.js';
import { labelOf } from '../facts/label-of.js';

/**
 * capi.volume-detach-pending: a Machine whose drain is done but whose deletion has waited
 * `deletingMinutes` for volumes to detach from its node (v1beta2 `Deleting` reason
 * `WaitingForVolumeDetach`, v1beta1 `VolumeDetachSucceeded` False, `status.deletion.waitForNodeVolumeDetachStartTime`),
 * naming the VolumeAttachments still attached and their PVCs. Cluster API waits on purpose: on vSphere a
 * disk still attached is deleted with the VM. Proposes `machine.skip-volume-detach` only when the
 * attachments are named and nothing is missing, with that risk.
 */
export const capiVolumeDetachPendingAnalyzer: Analyzer = createDeletionAnalyzer('capi.volume-detach-pending', (b) => {
  const { info, deletion } = b;
  const node = info.nodeName ?? '?';
  const evidence = [...b.evidence];
  const timeout = deletion.volumeDetachTimeoutSeconds;
  evidence.push(
    timeout === undefined
      ? 'no nodeVolumeDetachTimeout on the Machine: Cluster API waits for the detach without limit'
      : `nodeVolumeDetachTimeout ${formatAge(timeout * 1000)}`,
  );
  const volumes = b.attachments.map((a) => a.spec?.source?.persistentVolumeName ?? a.metadata.name);
  const attachers = [
    ...new Set(b.attachments.map((a) => a.spec?.attacher).filter((x): x is string => typeof x === 'string')),
  ];
  const remediations: RemediationProposal[] = [];
  if (b.named && !b.missing.length) {
    remediations.push({
      action: 'machine.skip-volume-detach',
      params: { namespace: info.namespace, name: info.name },
      label: labelOf('Skip volume-detach wait: ', info.name),
      risk: `The VM is deleted with ${volumes.length ? volumes.join(', ') : 'its volumes'} still attached: on vSphere an attached disk is deleted with the VM (data loss), elsewhere unflushed writes are lost.`,
    });
  }
  return {
    says: `cannot be deleted: ${b.summary}`,
    evidence,
    cause: `The pods of node ${node} are gone but the CSI driver${attachers.length ? ` (${attachers.join(', ')})` : ''} has not detached ${volumes.length ? volumes.join(', ') : 'its volumes'}; Cluster API waits so that no attached disk is deleted with the VM. Look at the VolumeAttachment's detachError and the CSI controller's logs; skip the wait only once the data is safe.`,
    remediations,
    ids: { node, ...(volumes.length ? { persistentVolumes: volumes.join(',') } : {}) },
  };
});
