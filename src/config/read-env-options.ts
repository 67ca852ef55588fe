import { ConfigError } from './config-error.js';

/**
 * Every environment variable the bot reads, in one place (docs/design.md "Interfaces"). Pure: pass the env.
 * Only the composition root (CLI entry) calls this with process.env.
 */
export interface EnvOptions {
  /** Bot token (xoxb-…). */
  slackBotToken?: string;
  /** Signing secret for HTTP mode request verification. */
  slackSigningSecret?: string;
  /** App-level token (xapp-…): when set, `serve` uses Socket Mode. */
  slackAppToken?: string;
  /** Web API base URL, default Slack's; set in tests and behind proxies. */
  slackApiUrl?: string;
  /** Redis connection URL, default redis://127.0.0.1:6379. */
  redisUrl: string;
  /** Config file path (K8S_HEALTH_CONFIG), default config/config.yaml. */
  configFile?: string;
  port: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * K8S_HEALTH_PLAN_SECRET: HMAC key that signs approval requests and votes, seals backups and audit
   * records (≥ 32 bytes; never stored in Redis, never logged). Without it the read-only bot works and
   * approval-gated fixes are refused (approvals/plan-signer.ts).
   */
  planSecret?: string;
  /**
   * K8S_HEALTH_ALERTMANAGER_TOKEN: the bearer token Alertmanager's webhook receiver sends
   * (`http_config.authorization`); without it `POST /alertmanager` answers 404 (docs/alertmanager.md).
   */
  alertmanagerToken?: string;
}

export function readEnvOptions(env: Record<string, string | undefined>): EnvOptions {
  const level = (env.LOG_LEVEL ?? 'info').toLowerCase();
  const port = env.PORT ? Number(env.PORT) : 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number (0-65535), got "${env.PORT}"`);
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new ConfigError(`LOG_LEVEL must be one of debug, info, warn, error, got "${env.LOG_LEVEL}"`);
  return {
    slackBotToken: env.SLACK_BOT_TOKEN || undefined,
    slackSigningSecret: env.SLACK_SIGNING_SECRET || undefined,
    slackAppToken: env.SLACK_APP_TOKEN || undefined,
    slackApiUrl: env.SLACK_API_URL || undefined,
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    configFile: env.K8S_HEALTH_CONFIG || undefined,
    port,
    logLevel: level as EnvOptions['logLevel'],
    planSecret: env.K8S_HEALTH_PLAN_SECRET || undefined,
    alertmanagerToken: env.K8S_HEALTH_ALERTMANAGER_TOKEN || undefined,
  };
}
