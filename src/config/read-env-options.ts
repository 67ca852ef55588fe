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
  /**
   * Where Redis is, as every process connects to it (store/connect-redis.ts): REDIS_URL, a Sentinel
   * topology (REDIS_SENTINELS + REDIS_SENTINEL_MASTER) or a Redis Cluster (REDIS_CLUSTER_NODES) — a
   * topology wins over REDIS_URL — with REDIS_USERNAME,
   * REDIS_PASSWORD, REDIS_SENTINEL_PASSWORD and REDIS_TLS_CA_FILE.
   */
  redis: RedisEnv;
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

/**
 * The Redis part of the environment: where Redis is, the one shape every connection takes
 * (store/connect-redis.ts, which also takes a bare URL). No secret is ever logged from it: connect-redis.ts redacts.
 */
export interface RedisEnv {
  url: string;
  /** REDIS_SENTINELS (`host:port,…`) and REDIS_SENTINEL_MASTER (the master group's name). */
  sentinels?: { host: string; port: number }[];
  sentinelMaster?: string;
  /** REDIS_CLUSTER_NODES (`host:port,…`): some nodes of a Redis Cluster; the client discovers the rest. */
  clusterNodes?: { host: string; port: number }[];
  username?: string;
  password?: string;
  sentinelPassword?: string;
  /** REDIS_TLS_CA_FILE: TLS to Redis (and the sentinels), trusting this CA bundle. */
  tlsCaFile?: string;
}

/** `host:port,host:port` as a list; one line naming the variable when an entry is not that. */
function parseNodes(name: string, value: string): { host: string; port: number }[] {
  const nodes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(entry);
      const port = m ? Number(m[2]) : NaN;
      if (!m || port < 1 || port > 65535)
        throw new ConfigError(`${name} must be host:port pairs separated by commas, got "${entry}"`);
      return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
    });
  if (!nodes.length) throw new ConfigError(`${name} is set but names no host:port`);
  return nodes;
}

function readRedisEnv(env: Record<string, string | undefined>): RedisEnv {
  const out: RedisEnv = { url: env.REDIS_URL || 'redis://127.0.0.1:6379' };
  if (env.REDIS_CLUSTER_NODES && env.REDIS_SENTINELS) {
    throw new ConfigError(
      'REDIS_CLUSTER_NODES and REDIS_SENTINELS are both set: a Redis is either a Cluster or watched by sentinels; keep one',
    );
  }
  if (env.REDIS_CLUSTER_NODES) out.clusterNodes = parseNodes('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES);
  if (env.REDIS_SENTINELS) {
    out.sentinels = parseNodes('REDIS_SENTINELS', env.REDIS_SENTINELS);
    if (!env.REDIS_SENTINEL_MASTER)
      throw new ConfigError(
        'REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not: name the master group the sentinels monitor (e.g. mymaster)',
      );
    out.sentinelMaster = env.REDIS_SENTINEL_MASTER;
  } else if (env.REDIS_SENTINEL_MASTER) {
    throw new ConfigError(
      'REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not: list the sentinels as host:port,host:port',
    );
  }
  if (env.REDIS_USERNAME) out.username = env.REDIS_USERNAME;
  if (env.REDIS_PASSWORD) out.password = env.REDIS_PASSWORD;
  if (env.REDIS_SENTINEL_PASSWORD) out.sentinelPassword = env.REDIS_SENTINEL_PASSWORD;
  if (env.REDIS_TLS_CA_FILE) out.tlsCaFile = env.REDIS_TLS_CA_FILE;
  return out;
}

export function readEnvOptions(env: Record<string, string | undefined>): EnvOptions {
  const level = (env.LOG_LEVEL ?? 'info').toLowerCase();
  const port = env.PORT ? Number(env.PORT) : 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a port number (0-65535), got "${env.PORT}"`);
  if (!['debug', 'info', 'warn', 'error'].includes(level))
    throw new ConfigError(`LOG_LEVEL must be one of debug, info, warn, error, got "${env.LOG_LEVEL}"`);
  return {
    slackBotToken: env.SLACK_BOT_TOKEN || undefined,
    slackSigningSecret: env.SLACK_SIGNING_SECRET || undefined,
    slackAppToken: env.SLACK_APP_TOKEN || undefined,
    slackApiUrl: env.SLACK_API_URL || undefined,
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    redis: readRedisEnv(env),
    configFile: env.K8S_HEALTH_CONFIG || undefined,
    port,
    logLevel: level as EnvOptions['logLevel'],
    planSecret: env.K8S_HEALTH_PLAN_SECRET || undefined,
    alertmanagerToken: env.K8S_HEALTH_ALERTMANAGER_TOKEN || undefined,
  };
}
