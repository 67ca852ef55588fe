import { labelOf } from '../../diagnose/facts/label-of.js';
import { EXCLUDE_WAIT_FOR_VOLUME_DETACH, readMachineDeletion } from '../../diagnose/facts/read-machine-deletion.js';
import { createAnnotateAction } from './create-annotate-action.js';

/**
 * machine.skip-volume-detach `namespace` `name`: a Machine being deleted that waits for volumes
 * to detach from its node gets Cluster API's `machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach`
 * annotation, so the VM is deleted without waiting. Only while it is being deleted and still in that wait.
 * Undo: machine.wait-for-volume-detach.
 */
export const machineSkipVolumeDetach = createAnnotateAction({
  id: 'machine.skip-volume-detach',
  undoWords:
    'wait for the volume detach again: an undo button proposes removing the annotation while the Machine still exists.',
  kind: 'Machine',
  annotation: EXCLUDE_WAIT_FOR_VOLUME_DETACH,
  label: (t) => labelOf('Skip volume-detach wait: ', t.name),
  risk: (t) =>
    `The VM of ${t.what} is deleted with its volumes still attached: on vSphere an attached disk is deleted with the VM (data loss); elsewhere writes not yet flushed are lost.`,
  preconditions: (t, obj) => [
    {
      id: 'deleting',
      text: `${t.what} is being deleted (deletionTimestamp set)`,
      ...(obj?.metadata.deletionTimestamp ? { recorded: obj.metadata.deletionTimestamp } : {}),
    },
    {
      id: 'waiting-for-volumes',
      text: "Cluster API still waits for its node's volumes to detach (Deleting reason WaitingForVolumeDetach, or VolumeDetachSucceeded False)",
    },
  ],
  problems: (t, obj) => {
    const d = readMachineDeletion(obj);
    if (!d.since) return [`${t.what} is not being deleted: the annotation would skip a future wait unseen`];
    return d.stage === 'WaitingForVolumeDetach'
      ? []
      : [`${t.what} no longer waits for volumes to detach (stage ${d.stage ?? 'unknown'}): nothing to skip`];
  },
  effect: "Cluster API stops waiting for its node's volumes to detach",
  undo: {
    action: 'machine.wait-for-volume-detach',
    label: (t) => labelOf('Resume volume-detach wait: ', t.name),
    risk: (t) => `Cluster API waits again for the volumes of ${t.what}'s node to detach before deleting the VM.`,
  },
});
