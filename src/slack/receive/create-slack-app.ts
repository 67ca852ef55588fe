import { App, LogLevel, type CustomRoute } from '@slack/bolt';
import type { Logger } from '../../log/logger.js';
import { createBoltLogger } from './create-bolt-logger.js';
import { slackErrorCode } from '../post/post-answer.js';
import { checkSlackRequest, type SlackRequestPolicy, type SlackRequestRefusal } from './check-slack-request.js';
import { createCheckedReceiver } from './create-checked-receiver.js';
import { createWorkspacePolicy } from './create-workspace-policy.js';
import type { ReplayGuard } from './create-replay-guard.js';
import { SlackStartupError } from './slack-startup-error.js';
import { describeError } from '../../errors/describe-error.js';

/** How to reach Slack. Socket Mode when `appToken` is set, else HTTP with request signing. */
export interface SlackAppOptions {
  botToken?: string;
  signingSecret?: string;
  appToken?: string;
  /** Web API base URL (SLACK_API_URL), e.g. http://127.0.0.1:PORT/api/ in tests. */
  apiUrl?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Where Bolt's own lines go (through create-bolt-logger.ts); absent: Bolt's console logger. */
  logger?: Logger;
  /** HTTP mode only: extra routes on the receiver's port (/healthz, /readyz, /metrics). */
  customRoutes?: CustomRoute[];
  /** Drops a verified request whose exact body was already handled (acked, never processed twice). */
  replayGuard?: ReplayGuard;
  /**
   * Which workspace/org may send requests (config `slack`; with neither id set, the bot's own from
   * auth.test: create-workspace-policy.ts); every request is checked (check-slack-request.ts).
   */
  requestPolicy?: SlackRequestPolicy;
  /** Told about every request refused by those checks (log line). */
  onRefused?: (refusal: SlackRequestRefusal) => void;
  /** HTTP mode: told about every request refused for its size or for too many pending (slack-http-limits.ts). */
  onOversized?: (status: number, reason: string) => void;
  /** HTTP mode: the clock the future-timestamp check reads, in seconds (tests). */
  nowSeconds?: () => number;
}

const LEVELS = { debug: LogLevel.DEBUG, info: LogLevel.INFO, warn: LogLevel.WARN, error: LogLevel.ERROR } as const;

/**
 * Build and initialise the Bolt app. Initialisation is deferred and awaited here (docs/development.md, "Stack notes":
 * with a token Bolt calls auth.test in its constructor, and a bad token then kills the process through an unhandled
 * rejection), so a bad token becomes one SlackStartupError naming SLACK_BOT_TOKEN. HTTP mode receives through
 * createCheckedReceiver (Bolt's signature check, then ours: future timestamps, payloads without a user, other
 * workspaces); Socket Mode has no signature and runs the same payload checks as the first global middleware (a refused
 * payload is acked and dropped).
 */
export async function createSlackApp(opts: SlackAppOptions): Promise<{ app: App; mode: 'http' | 'socket' }> {
  if (!opts.botToken) {
    throw new SlackStartupError(
      'E_SLACK_TOKEN_MISSING',
      'SLACK_BOT_TOKEN is not set: set it to the bot token (xoxb-…) from the app\'s "OAuth & Permissions" page',
    );
  }
  const mode = opts.appToken ? 'socket' : 'http';
  const workspace = createWorkspacePolicy(opts.requestPolicy);
  // One logger for Bolt, its receiver and its clients: our lines, our level.
  const boltLogger = opts.logger ? createBoltLogger(opts.logger, LEVELS[opts.logLevel]) : undefined;
  if (mode === 'http' && !opts.signingSecret) {
    throw new SlackStartupError(
      'E_SLACK_SECRET_MISSING',
      'SLACK_SIGNING_SECRET is not set: HTTP mode verifies every request with it ("Basic Information" page), or set SLACK_APP_TOKEN for Socket Mode',
    );
  }
  const clientOptions = {
    ...(opts.apiUrl ? { slackApiUrl: opts.apiUrl } : {}),
    // Answers are useful for minutes, not for the default half hour of retries.
    retryConfig: { retries: 2, minTimeout: 200, maxTimeout: 2000 },
    timeout: 10_000,
  };
  const app =
    mode === 'socket'
      ? new App({
          token: opts.botToken,
          appToken: opts.appToken,
          socketMode: true,
          deferInitialization: true,
          logLevel: LEVELS[opts.logLevel],
          ...(boltLogger ? { logger: boltLogger } : {}),
          clientOptions,
          // The Socket Mode client opens its connection (apps.connections.open) with its own Web API
          // client: it needs SLACK_API_URL too, or it would always go to Slack itself.
          installerOptions: { clientOptions },
        })
      : new App({
          token: opts.botToken,
          receiver: createCheckedReceiver({
            signingSecret: opts.signingSecret!,
            logLevel: LEVELS[opts.logLevel],
            logger: boltLogger,
            customRoutes: opts.customRoutes,
            policy: workspace.current,
            onRefused: opts.onRefused,
            onOversized: opts.onOversized,
            nowSeconds: opts.nowSeconds,
          }),
          deferInitialization: true,
          logLevel: LEVELS[opts.logLevel],
          ...(boltLogger ? { logger: boltLogger } : {}),
          clientOptions,
        });
  if (mode === 'socket') {
    // Registered first: runs before the replay guard and every listener.
    app.use(async (args) => {
      const policy = workspace.current();
      const refusal = policy
        ? checkSlackRequest(args.body, policy, { nowSeconds: Math.floor(Date.now() / 1000) })
        : {
            status: 503 as const,
            reason: 'workspace-unknown' as const,
            detail: "the bot's workspace is not known yet",
          };
      if (!refusal) return args.next();
      opts.onRefused?.(refusal);
      await (args as { ack?: () => Promise<void> }).ack?.();
    });
  }
  const guard = opts.replayGuard;
  if (guard) {
    // Global middleware runs after Bolt verified the signature and before every listener.
    app.use(async (args) => {
      if (!(await guard(args.body))) return args.next();
      const ack = (args as { ack?: () => Promise<void> }).ack;
      await ack?.();
    });
  }
  try {
    await app.init();
  } catch (err) {
    const code = slackErrorCode(err) || describeError(err);
    throw new SlackStartupError(
      'E_SLACK_AUTH',
      `Slack rejected SLACK_BOT_TOKEN (auth.test: ${code}): check the bot token and SLACK_API_URL`,
      { cause: err },
    );
  }
  // The workspace is the token's own unless configured: known before any request is taken.
  await workspace.learn(app.client);
  return { app, mode };
}
