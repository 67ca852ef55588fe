import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { CatalogActionId } from '../remediation-plan.js';
import { deploymentScale } from './deployment-scale.js';
import { etcdMoveLeader } from './etcd-move-leader.js';
import { etcdRemoveMember } from './etcd-remove-member.js';
import { machineSkipDrain } from './machine-skip-drain.js';
import { machineSkipVolumeDetach } from './machine-skip-volume-detach.js';
import { machineWaitForDrain } from './machine-wait-for-drain.js';
import { machineWaitForVolumeDetach } from './machine-wait-for-volume-detach.js';
import { mhcPauseRemediation } from './mhc-pause-remediation.js';
import { mhcResumeRemediation } from './mhc-resume-remediation.js';
import { nodeDelete } from './node-delete.js';
import { nodeOutOfService } from './node-out-of-service.js';
import { nodeRemoveOutOfService } from './node-remove-out-of-service.js';
import { podForceDelete } from './pod-force-delete.js';
import { webhookRestore } from './webhook-restore.js';
import { webhookSuspend } from './webhook-suspend.js';

/** The remediation catalog (docs/design.md "Fix catalog"): one explicit list, no self-registration. */
export const ACTIONS: readonly RemediationAction[] = [
  etcdMoveLeader,
  etcdRemoveMember,
  webhookSuspend,
  webhookRestore,
  deploymentScale,
  nodeOutOfService,
  nodeRemoveOutOfService,
  nodeDelete,
  podForceDelete,
  // Cluster API annotations, each with its undo
  machineSkipDrain,
  machineWaitForDrain,
  machineSkipVolumeDetach,
  machineWaitForVolumeDetach,
  mhcPauseRemediation,
  mhcResumeRemediation,
];

/** The catalog entry for an action id; an unknown id is a plan nobody may run. */
export function findAction(id: string): RemediationAction {
  const a = ACTIONS.find((x) => x.id === (id as CatalogActionId));
  if (!a) throw new RemediateError('E_REMEDIATE_UNKNOWN_ACTION', `unknown remediation action "${id}"`);
  return a;
}
