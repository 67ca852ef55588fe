import type { Redis } from 'ioredis';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import { createApproverAccountCheck } from '../slack/handle/check-approver-account.js';
import { createApprovalAuthorizer } from '../slack/handle/handle-approval-authorizer.js';
import type { ApprovalDeps } from '../slack/handle/handle-approval-deps.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAuditLog } from '../store/audit-log.js';
import { createApprovalBackups } from '../store/approval-backups.js';
import type { Jobs } from './compose-jobs.js';
import { composeAppHomeDeps } from './compose-app-home-deps.js';
import { refreshAppHomes, type AppHomeDeps } from '../slack/post/publish-app-home.js';

/**
 * What the Slack side of the approval flow needs, composed the same way by every root that
 * runs the Slack app (`serve`, the sandbox): votes are sealed and audited on the Slack side's Redis
 * connection; a fix-button click is handed to the remediation worker (`k8s-health-propose`) and the
 * decisive vote enqueues `k8s-health-remediate`, both through the composed jobs side.
 */
export function composeApprovalDeps(opts: {
  redis: Redis;
  keyPrefix: string;
  config: Config;
  signer: PlanSigner;
  jobs: Pick<Jobs, 'requestProposal' | 'enqueueRemediation'>;
  log: Logger;
  now?: () => Date;
  isAuthorized?: ApprovalDeps['isAuthorized'];
  appHome?: AppHomeDeps;
}): ApprovalDeps {
  const { redis, keyPrefix, log } = opts;
  // Built once per process: the root passes the App Home deps and the approver check it already has.
  const appHome =
    opts.appHome ??
    composeAppHomeDeps({ redis, keyPrefix, config: opts.config, now: opts.now ?? (() => new Date()), log });
  return {
    approvals: createApprovalStore(redis, { keyPrefix }),
    audit: createAuditLog(redis, { keyPrefix, log, signer: opts.signer }),
    backups: createApprovalBackups(redis, { keyPrefix }),
    signer: opts.signer,
    requestProposal: opts.jobs.requestProposal,
    enqueue: opts.jobs.enqueueRemediation,
    isAuthorized: opts.isAuthorized ?? createApprovalAuthorizer({ log }),
    checkApprover: createApproverAccountCheck(opts.config.slack),
    onApprovalsChanged: (client) => refreshAppHomes(appHome, client),
  };
}
