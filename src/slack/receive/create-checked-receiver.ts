import type { IncomingMessage } from 'node:http';
import {
  HTTPModuleFunctions,
  HTTPReceiver,
  type App,
  type CustomRoute,
  type LogLevel,
  type Receiver,
  type ReceiverEvent,
  type ReceiverProcessEventErrorHandlerArgs,
  type Logger as BoltLogger,
} from '@slack/bolt';
import { K8sHealthError } from '../../errors/k8s-health-error.js';
import { HTTP_SERVER_OPTIONS, limitRequests, SLACK_BODY_LIMIT } from './slack-http-limits.js';
import { checkSlackRequest, type SlackRequestPolicy, type SlackRequestRefusal } from './check-slack-request.js';

/** Options of {@link createCheckedReceiver}. */
export interface CheckedReceiverOptions {
  signingSecret: string;
  logLevel: LogLevel;
  /** Bolt's logger (create-bolt-logger.ts); absent: the receiver's own console logger. */
  logger?: BoltLogger;
  customRoutes?: CustomRoute[];
  /** The workspace policy in force; undefined while it is not known yet (every request → 503). */
  policy: () => SlackRequestPolicy | undefined;
  /** Told about every refused request (one log line, a metric). */
  onRefused?: (refusal: SlackRequestRefusal) => void;
  /** Told about every request refused for its size or for too many pending ones (status, reason). */
  onOversized?: (status: number, reason: string) => void;
  /** The clock, in seconds (tests move it). */
  nowSeconds?: () => number;
}

/** The refusal travels from our check to the receiver's error handler as this error. */
class SlackRequestRefused extends K8sHealthError {
  override readonly name = 'SlackRequestRefused';
  constructor(readonly refusal: SlackRequestRefusal) {
    super('E_SLACK_REQUEST_REFUSED', `Slack request refused (${refusal.status} ${refusal.reason}): ${refusal.detail}`);
  }
}

/** Before auth.test has answered, no request is checked against a guessed workspace: retry later. */
const WORKSPACE_UNKNOWN: SlackRequestRefusal = {
  status: 503,
  reason: 'workspace-unknown',
  detail: "the bot's workspace is not known yet (auth.test has not answered)",
};

/** Where the request's timestamp header rides from the HTTP layer to the check (not a Bolt context key). */
const TIMESTAMP_PROPERTY = 'k8sHealthRequestTimestamp';

/**
 * Bolt's HTTPReceiver (signature and staleness checked as before) with our request checks in front
 * of the app (check-slack-request.ts): a refused request never reaches Bolt's authorization, a
 * middleware or a listener, and gets its own HTTP status (400, 401 or 403) with an empty body — not
 * the 500 a listener failing on it would give, nor the 404 of a request nobody acked. Receivers
 * handle transport only (Bolt's own rule), so this is a receiver, not a middleware: a middleware can
 * neither see the timestamp header nor choose the status.
 */
export function createCheckedReceiver(opts: CheckedReceiverOptions): Receiver {
  const now = opts.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const inner = new HTTPReceiver({
    signingSecret: opts.signingSecret,
    logLevel: opts.logLevel,
    ...(opts.logger ? { logger: opts.logger } : {}),
    customRoutes: opts.customRoutes ?? [],
    // Bolt's own cap (raw-body) as a second layer; the first is limitRequests below.
    bodyLimit: SLACK_BODY_LIMIT,
    customPropertiesExtractor: (req: IncomingMessage) => ({
      [TIMESTAMP_PROPERTY]: req.headers['x-slack-request-timestamp'],
    }),
    processEventErrorHandler: async (args: ReceiverProcessEventErrorHandlerArgs) => {
      if (!(args.error instanceof SlackRequestRefused))
        return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
      if (!args.response.headersSent) HTTPModuleFunctions.buildNoBodyResponse(args.response, args.error.refusal.status);
      return true; // answered: stops the receiver's "not acknowledged within 3 s" timer
    },
  });
  // Caps and the pending limit run before Bolt buffers anything (slack-http-limits.ts).
  // A custom route that reads a body of its own says how much it takes (`bodyLimit`, e.g. POST /alertmanager).
  const bodyLimits: Record<string, number> = {};
  for (const r of opts.customRoutes ?? []) {
    const limit = (r as { bodyLimit?: unknown }).bodyLimit;
    if (typeof limit === 'number') bodyLimits[r.path] = limit;
  }
  inner.requestListener = limitRequests(inner.requestListener, {
    slackPaths: ['/slack/events'],
    bodyLimits,
    onRefused: opts.onOversized,
  });
  return {
    init(app: App) {
      const checked = {
        async processEvent(event: ReceiverEvent) {
          const { [TIMESTAMP_PROPERTY]: timestamp, ...customProperties } = event.customProperties ?? {};
          const policy = opts.policy();
          const refusal = policy
            ? checkSlackRequest(event.body, policy, { timestamp, nowSeconds: now() })
            : WORKSPACE_UNKNOWN;
          if (refusal) {
            opts.onRefused?.(refusal);
            throw new SlackRequestRefused(refusal);
          }
          return app.processEvent({ ...event, customProperties });
        },
      };
      // The receiver only ever calls processEvent on the app it is given.
      inner.init(checked as unknown as App);
    },
    // Node's server timeouts instead of its 300 s defaults; options given by the caller still win.
    start: (port: Parameters<HTTPReceiver['start']>[0], serverOptions: Parameters<HTTPReceiver['start']>[1] = {}) =>
      inner.start(port, { ...HTTP_SERVER_OPTIONS, ...serverOptions }),
    stop: () => inner.stop(),
  };
}
