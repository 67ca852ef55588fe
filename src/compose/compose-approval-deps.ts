import type { Redis } from 'ioredis';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import type { PlanSigner } from '../remediate/plan-signer.js';
import { createApproverAccountCheck } from '../slack/check-approver-account.js';
import { createApprovalAuthorizer } from '../slack/handle-approval-authorizer.js';
import type { ApprovalDeps } from '../slack/handle-approval-deps.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAuditLog } from '../store/audit-log.js';
import type { Jobs } from './compose-jobs.js';
import { composeAppHomeDeps } from './compose-app-home-deps.js';
import { refreshAppHomes } from '../slack/publish-app-home.js';

/**
 * What the Slack side of the approval flow needs, composed the same way by every root that
 * runs the Slack app (`serve`, the sandbox): votes are sealed and audited on the Slack side's Redis
 * connection; a fix-button click is handed to the remediation worker (`k8s-health-propose`) and the
 * decisive vote enqueues `k8s-health-remediate`, both through the composed jobs side.
 */
export function composeApprovalDeps(opts: { redis: Redis; keyPrefix: string; config: Config; signer: PlanSigner; jobs: Pick<Jobs, 'requestProposal' | 'enqueueRemediation'>; log: Logger; now?: () => Date }): ApprovalDeps {
  const { redis, keyPrefix, log } = opts;
  return {
    approvals: createApprovalStore(redis, { keyPrefix }),
    audit: createAuditLog(redis, { keyPrefix, log, signer: opts.signer }),
    signer: opts.signer,
    requestProposal: opts.jobs.requestProposal,
    enqueue: opts.jobs.enqueueRemediation,
    isAuthorized: createApprovalAuthorizer({ log }),
    checkApprover: createApproverAccountCheck(opts.config.slack),
    onApprovalsChanged: (client) => refreshAppHomes(composeAppHomeDeps({ redis, keyPrefix, config: opts.config, now: opts.now ?? (() => new Date()), log }), client),
  };
}
