import type { Config } from '../config/config-schema.js';
import type { ReportStore } from '../store/report-store.js';
import type { RequestScan } from './handle/create-scan-requester.js';
import type { ServeMetrics } from './receive/create-metrics.js';
import type { ProposalStore } from '../store/proposal-store.js';
import type { Logger } from '../log/logger.js';
import type { AnswerCardStore } from '../store/answer-card-store.js';

/** What the Slack listeners need; built once by the composition root (cli/run-serve.ts) or a test. */
export interface SlackDeps {
  config: Config;
  reports: ReportStore;
  proposals: ProposalStore;
  /** A fresh scan of a cluster, stored; concurrent calls for one cluster share one scan. */
  requestScan: RequestScan;
  metrics: ServeMetrics;
  now: () => Date;
  /** The process's logger (handlers log through a child per request). */
  log: Logger;
  /**
   * When fixes last ran (approval store: fixesRan, by request/fix-key.ts): a fix that ran has no button on the card.
   */
  fixesRan?: (fixKeys: readonly string[]) => Promise<Record<string, string>>;
  /** Posted answer cards, so the notify worker marks them outdated when an incident they show resolves. */
  answers?: AnswerCardStore;
}
