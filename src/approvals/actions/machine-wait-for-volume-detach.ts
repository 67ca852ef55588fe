import { labelOf } from '../../diagnose/facts/label-of.js';
import { EXCLUDE_WAIT_FOR_VOLUME_DETACH } from '../../diagnose/facts/read-machine-deletion.js';
import { createUnannotateAction } from './create-unannotate-action.js';

/**
 * machine.wait-for-volume-detach `namespace` `name` `value`: the undo of
 * machine.skip-volume-detach, proposed by its undo button only: removes the exclude annotation while it
 * still holds the value the skip wrote.
 */
export const machineWaitForVolumeDetach = createUnannotateAction({
  id: 'machine.wait-for-volume-detach',
  undoWords: 'none needed: this is itself the undo of skipping the volume detach.',
  kind: 'Machine',
  annotation: EXCLUDE_WAIT_FOR_VOLUME_DETACH,
  label: (t) => labelOf('Resume volume-detach wait: ', t.name),
  risk: (t) => `Cluster API waits again for the volumes of ${t.what}'s node to detach before deleting the VM.`,
  effect: "Cluster API waits for its node's volumes to detach again",
});
