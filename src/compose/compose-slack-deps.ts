import type { Redis } from 'ioredis';
import { createApprovalAuthorizer } from '../slack/handle/handle-approval-authorizer.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import type { ServeMetrics } from '../slack/receive/create-metrics.js';
import { createScanRequester, type ScanFn } from '../slack/handle/create-scan-requester.js';
import type { ReportStore } from '../store/report-store.js';
import { createProposalStore } from '../store/proposal-store.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAnswerCardStore } from '../store/answer-card-store.js';
import { createRecordSeal } from '../store/create-record-seal.js';
import { composeAlertThreadDeps } from './compose-alert-thread-deps.js';
import { composeAppHomeDeps } from './compose-app-home-deps.js';
import { composeApprovalDeps } from './compose-approval-deps.js';
import type { Jobs } from './compose-jobs.js';
import type { ApprovalDeps } from '../slack/handle/handle-approval-deps.js';
import { createAlertReceiptStore } from '../alertmanager/alert-receipt-store.js';
import { createAlertmanagerApi } from '../alertmanager/alertmanager-api.js';

/**
 * What the Slack app's listeners need, composed alike by `serve` (cli/run-serve.ts) and the sandbox
 * (sandbox/start-sandbox.ts): the stores, the scan requester, the approval side (through the composed
 * jobs), the alert thread buttons and the App Home. `scan` runs a fresh scan of a cluster; `onScan`
 * counts them.
 */
export function composeSlackDeps(opts: {
  redis: Redis;
  keyPrefix: string;
  config: Config;
  signer: PlanSigner;
  jobs: Pick<Jobs, 'requestProposal' | 'enqueueRemediation'>;
  reports: ReportStore;
  scan: ScanFn;
  onScan?: (ok: boolean) => void;
  metrics: ServeMetrics;
  now: () => Date;
  log: Logger;
  /** The process's approver check, when its root shares one with the workers. */
  isAuthorized?: ApprovalDeps['isAuthorized'];
}) {
  const { redis, keyPrefix, config, signer, now, log } = opts;
  // One approver check (its group cache) and one App Home composition for every listener of the process.
  const isAuthorized = opts.isAuthorized ?? createApprovalAuthorizer({ log });
  const approvals = createApprovalStore(redis, { keyPrefix });
  const appHome = composeAppHomeDeps({ redis, keyPrefix, config, now, log, isAuthorized });
  return {
    config,
    reports: opts.reports,
    proposals: createProposalStore(redis, { keyPrefix }),
    fixesRan: (keys: readonly string[]) => approvals.fixesRan(keys),
    answers: createAnswerCardStore(redis, { keyPrefix, seal: createRecordSeal(signer, 'answer-card') }),
    requestScan: createScanRequester(opts.scan, opts.reports, { onScan: opts.onScan }),
    metrics: opts.metrics,
    now,
    log,
    approval: composeApprovalDeps({
      redis,
      keyPrefix,
      config,
      signer,
      jobs: opts.jobs,
      log,
      now,
      isAuthorized,
      appHome,
    }),
    alertThreads: composeAlertThreadDeps({ redis, keyPrefix, signer, now, log, config }),
    appHome,
    // The Prometheus alerts' Silence and Expire buttons (docs/alertmanager.md).
    alertmanager: {
      receipts: createAlertReceiptStore(redis, { keyPrefix }),
      ...(config.alertmanager.url ? { api: createAlertmanagerApi(config.alertmanager.url) } : {}),
      isAuthorized,
    },
  };
}
