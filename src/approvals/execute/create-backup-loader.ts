import type { ApprovalBackups } from '../approval-stores.js';
import type { ActionContext } from './action-context.js';
import type { PlanSigner } from '../plan-signer.js';
import { openSealedBackup } from './seal-backup.js';

/**
 * ActionContext.loadBackup over the backup store: undefined when no backup is stored, the opened
 * backup when its seal verifies, and an E_REMEDIATE_BACKUP error (one line) when it does not.
 */
export function createBackupLoader(
  backups: ApprovalBackups,
  signer: PlanSigner,
): NonNullable<ActionContext['loadBackup']> {
  return async (requestId) => {
    const record = await backups.load(requestId);
    return record ? openSealedBackup(signer, requestId, record) : undefined;
  };
}
