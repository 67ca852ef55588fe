import { labelOf } from '../../diagnose/facts/label-of.js';
import { EXCLUDE_NODE_DRAINING, readMachineDeletion } from '../../diagnose/facts/read-machine-deletion.js';
import { createAnnotateAction } from './create-annotate-action.js';

/**
 * machine.skip-drain `namespace` `name`: a Machine already being deleted whose drain is blocked
 * (a PodDisruptionBudget allowing no disruption, pods that never terminate) gets Cluster API's
 * `machine.cluster.x-k8s.io/exclude-node-draining` annotation, so its deletion goes on without evicting
 * the pods left on the node. Only while the Machine is being deleted and still draining: on a Machine that
 * is not being deleted the annotation would silently skip a future drain. Undo: machine.wait-for-drain.
 */
export const machineSkipDrain = createAnnotateAction({
  id: 'machine.skip-drain',
  undoWords:
    'wait for the drain again: an undo button proposes removing the annotation while the Machine still exists.',
  kind: 'Machine',
  annotation: EXCLUDE_NODE_DRAINING,
  label: (t) => labelOf('Skip drain: ', t.name),
  risk: (t) =>
    `Cluster API stops evicting pods from the node of ${t.what}: the pods still there (those a PodDisruptionBudget protects) are killed with the VM, without a graceful eviction, and their budget is not honoured.`,
  preconditions: (t, obj) => [
    {
      id: 'deleting',
      text: `${t.what} is being deleted (deletionTimestamp set)`,
      ...(obj?.metadata.deletionTimestamp ? { recorded: obj.metadata.deletionTimestamp } : {}),
    },
    {
      id: 'draining',
      text: `Cluster API is still draining its node (Deleting reason DrainingNode, or DrainingSucceeded False)`,
    },
  ],
  problems: (t, obj) => {
    const d = readMachineDeletion(obj);
    if (!d.since) return [`${t.what} is not being deleted: the annotation would skip a future drain unseen`];
    return d.stage === 'DrainingNode'
      ? []
      : [`${t.what} is no longer draining (stage ${d.stage ?? 'unknown'}): nothing to skip`];
  },
  effect: 'Cluster API skips the drain of its node at the next reconcile',
  undo: {
    action: 'machine.wait-for-drain',
    label: (t) => labelOf('Resume drain: ', t.name),
    risk: (t) =>
      `Cluster API drains the node of ${t.what} again (if it still exists) and waits for its PodDisruptionBudgets.`,
  },
});
