import type { Redis } from 'ioredis';
import { createAlertStateStore } from '../alerts/alert-state-store.js';
import type { Logger } from '../log/logger.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import { createChannelLimiter } from '../slack/post/create-channel-limiter.js';
import type { AlertThreadDeps } from '../slack/handle/handle-alert-thread.js';
import { createAlertQuietStore } from '../alerts/alert-quiet-store.js';
import { createAlertThreadStore } from '../alerts/alert-thread-store.js';
import { createAuditLog } from '../store/audit-log.js';
import { createRedisBaselineStore } from '../store/baseline-store.js';
import { createProposalStore } from '../store/proposal-store.js';
import { createAlertReceiptStore } from '../alertmanager/alert-receipt-store.js';
import { createRecordSeal } from '../store/create-record-seal.js';
import { isConfiguredChannel } from '../slack/post/is-configured-channel.js';
import type { Config } from '../config/config-schema.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createInPlaceStore } from '../store/in-place-store.js';
import { createReportStore } from '../store/report-store.js';
import { listInPlace } from '../slack/post/list-in-place.js';
import { prometheusOnParent } from '../slack/post/prometheus-on-parent.js';

/**
 * What the alert thread buttons need (I'm on it, Snooze, Unsnooze, Export
 * timeline), composed the same way by every root that runs the Slack app (`serve`, the sandbox), on
 * the Slack side's Redis connection: the same stores, lock and channel limiter the notify workers use,
 * so a parent edited by a click and one edited by a notify job never interleave.
 */
export function composeAlertThreadDeps(opts: {
  redis: Redis;
  keyPrefix: string;
  signer: PlanSigner;
  now: () => Date;
  log: Logger;
  channelIntervalMs?: number;
  config?: Config;
}): AlertThreadDeps {
  const { redis, keyPrefix, now, log, config } = opts;
  // The same seals as the notify workers (compose/compose-jobs.ts): a click never edits where a Redis writer points.
  const states = createAlertStateStore(redis, {
    keyPrefix,
    seal: createRecordSeal(opts.signer, 'alert-state'),
    onTampered: (cluster) =>
      log.error(
        { cluster },
        'alert state does not verify with K8S_HEALTH_PLAN_SECRET (written by someone else?): not used',
      ),
  });
  const audit = createAuditLog(redis, { keyPrefix, log, signer: opts.signer });
  const approvals = createApprovalStore(redis, { keyPrefix });
  const receipts = createAlertReceiptStore(redis, { keyPrefix });
  return {
    post: {
      threads: createAlertThreadStore(redis, {
        keyPrefix,
        states,
        seal: createRecordSeal(opts.signer, 'alert-thread'),
        onTampered: (cluster, key) =>
          log.error(
            { cluster, thread: key },
            'alert thread record does not verify with K8S_HEALTH_PLAN_SECRET (written by someone else?): ignored',
          ),
      }),
      ...(config
        ? { channelAllowed: (cluster: string, channel: string) => isConfiguredChannel(config, cluster, channel) }
        : {}),
      quiet: createAlertQuietStore(redis, { keyPrefix, now }),
      limiter: createChannelLimiter(redis, { keyPrefix, intervalMs: opts.channelIntervalMs }),
      proposals: createProposalStore(redis, { keyPrefix }),
      fixesRan: (keys) => approvals.fixesRan(keys),
      inPlace: listInPlace(createInPlaceStore(redis, { keyPrefix }), createReportStore(redis, { keyPrefix, now })),
      // The parent keeps its Prometheus alerts line when a click re-renders it (docs/alertmanager.md).
      prometheusTally: (channel, ts) => prometheusOnParent(receipts, channel, ts, Boolean(config?.alertmanager.url)),
      now,
    },
    states,
    audit,
    timeline: { alerts: states, baselines: createRedisBaselineStore(redis, { keyPrefix, log }), audit },
  };
}
