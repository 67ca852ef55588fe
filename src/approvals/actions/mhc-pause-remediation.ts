import { labelOf } from '../../diagnose/facts/label-of.js';
import { PAUSED_ANNOTATION } from '../../diagnose/facts/read-paused.js';
import { createAnnotateAction } from './create-annotate-action.js';

/**
 * mhc.pause-remediation `namespace` `name` (the loop breaker): set `cluster.x-k8s.io/paused`
 * on a MachineHealthCheck while machines are recreated again and again for a cause replacement cannot
 * fix. The MHC controller returns before checking anything while the annotation is there (Cluster API
 * v0.4 to today), so no new remediation starts; one already started finishes. Chosen over
 * `cluster.x-k8s.io/skip-remediation` on Machines because the loop's next replacement would not carry it
 * (see diagnose/facts/propose-pause-remediation.ts). While paused the report shows capi.remediation-paused.
 * Undo: mhc.resume-remediation.
 */
export const mhcPauseRemediation = createAnnotateAction({
  id: 'mhc.pause-remediation',
  undoWords: 'resume remediation: an undo button proposes removing the pause annotation.',
  kind: 'MachineHealthCheck',
  annotation: PAUSED_ANNOTATION,
  label: (t) => labelOf('Pause remediation: ', t.name),
  risk: (t) =>
    `While paused, no machine checked by ${t.what} is replaced when it fails: a VM that really dies waits for a person until remediation is resumed.`,
  preconditions: () => [],
  problems: () => [],
  effect: 'the MachineHealthCheck stops marking machines for remediation until resumed',
  undo: {
    action: 'mhc.resume-remediation',
    label: (t) => labelOf('Resume remediation: ', t.name),
    risk: () => 'Unhealthy machines are replaced again: if the cause is not fixed, the recreation loop starts again.',
  },
});
