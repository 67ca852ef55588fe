import type { Redis } from 'ioredis';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import { createApprovalAuthorizer } from '../slack/handle/handle-approval-authorizer.js';
import type { AppHomeDeps } from '../slack/post/publish-app-home.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createHomeViewersStore } from '../store/home-viewers-store.js';
import { createReportStore } from '../store/report-store.js';

/**
 * What the App Home needs, composed alike for the Slack app's `app_home_opened` listener
 * and for the scan workers' refresh of recent viewers: the latest reports, the pending approvals, the
 * recent-viewer set, and who approves which cluster.
 */
export function composeAppHomeDeps(opts: {
  redis: Redis;
  keyPrefix: string;
  config: Config;
  now: () => Date;
  log: Logger;
  isAuthorized?: AppHomeDeps['isAuthorized'];
}): AppHomeDeps {
  const { redis, keyPrefix, now, log } = opts;
  return {
    config: opts.config,
    reports: createReportStore(redis, { keyPrefix, now }),
    approvals: createApprovalStore(redis, { keyPrefix }),
    viewers: createHomeViewersStore(redis, { keyPrefix }),
    // The process's one approver check when its root passes it (its group cache is shared), else its own.
    isAuthorized: opts.isAuthorized ?? createApprovalAuthorizer({ log }),
    now,
    log,
  };
}
