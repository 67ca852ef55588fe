import { labelOf } from '../../diagnose/facts/label-of.js';
import { EXCLUDE_NODE_DRAINING } from '../../diagnose/facts/read-machine-deletion.js';
import { createUnannotateAction } from './create-unannotate-action.js';

/**
 * machine.wait-for-drain `namespace` `name` `value`: the undo of machine.skip-drain, proposed
 * by its undo button only. Removes `machine.cluster.x-k8s.io/exclude-node-draining` while it still holds
 * the value the skip wrote; Cluster API then drains the node again if the Machine still exists.
 */
export const machineWaitForDrain = createUnannotateAction({
  id: 'machine.wait-for-drain',
  undoWords: 'none needed: this is itself the undo of skipping the drain.',
  kind: 'Machine',
  annotation: EXCLUDE_NODE_DRAINING,
  label: (t) => labelOf('Resume drain: ', t.name),
  risk: (t) => `Cluster API drains the node of ${t.what} again and waits for its PodDisruptionBudgets.`,
  effect: 'Cluster API drains its node again',
});
