import { labelOf } from '../../diagnose/facts/label-of.js';
import { PAUSED_ANNOTATION } from '../../diagnose/facts/read-paused.js';
import { createUnannotateAction } from './create-unannotate-action.js';

/**
 * mhc.resume-remediation `namespace` `name` `value`: the undo of mhc.pause-remediation,
 * proposed by its undo button and by capi.remediation-paused when the bot paused the MachineHealthCheck.
 * Removes `cluster.x-k8s.io/paused` only while it holds the value the pause wrote: a pause set by someone
 * else (or by clusterctl) is never lifted.
 */
export const mhcResumeRemediation = createUnannotateAction({
  id: 'mhc.resume-remediation',
  undoWords: 'none needed: this is itself the undo of pausing remediation.',
  kind: 'MachineHealthCheck',
  annotation: PAUSED_ANNOTATION,
  label: (t) => labelOf('Resume remediation: ', t.name),
  risk: () => 'Unhealthy machines are replaced again: if the cause is not fixed, the recreation loop starts again.',
  effect: 'the MachineHealthCheck checks and remediates its machines again',
});
