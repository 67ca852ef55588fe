/**
 * Where secrets can sit in what the bot logs, redacted by pino before a line is written (a value
 * at one of these paths becomes "[redacted]"). Matched at the top level of the logged object and
 * one level down (`*.`), plus the known nested places: kubeconfig users (`users[*].user.*`), HTTP
 * headers, etcd TLS material and environment maps. Tested by test/unit/logger.test.ts, which logs
 * objects holding each of them and greps the output.
 */
const SECRET_KEYS = [
  // Slack
  'token',
  'botToken',
  'appToken',
  'slackBotToken',
  'slackAppToken',
  'signingSecret',
  'slackSigningSecret',
  // K8S_HEALTH_PLAN_SECRET and generic secrets
  'planSecret',
  'alertmanagerToken',
  'secret',
  'password',
  'sentinelPassword',
  'passphrase',
  'privateKey',
  'apiKey',
  // HTTP
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  // kubeconfig user credentials
  'client-key-data',
  'client-certificate-data',
  'access-token',
  'refresh-token',
  'id-token',
  // a Redis URL may carry a password
  'redisUrl',
  // the environment, if a map of it is ever logged
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'K8S_HEALTH_PLAN_SECRET',
  'K8S_HEALTH_ALERTMANAGER_TOKEN',
  'REDIS_URL',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
];

/** The pino `redact.paths` of every logger (fast-redact syntax). */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_KEYS.map(path),
  ...SECRET_KEYS.map((k) => `*${path(k).startsWith('[') ? '' : '.'}${path(k)}`),
  ...['headers', 'req.headers', 'request.headers', '*.headers'].flatMap((h) =>
    ['authorization', 'Authorization', 'cookie'].map((k) => `${h}.${k}`),
  ),
  ...['users[*].user', '*.users[*].user', 'user', '*.user'].flatMap((u) =>
    [
      '.token',
      '.password',
      '["client-key-data"]',
      '["client-certificate-data"]',
      '["auth-provider"].config',
      '.exec',
    ].map((k) => `${u}${k}`),
  ),
  // etcd client TLS material (the files' contents; their paths are not secret)
  ...['tls', '*.tls', 'etcd.tls', '*.etcd.tls'].flatMap((t) => ['key', 'cert', 'ca'].map((k) => `${t}.${k}`)),
  ...['env', '*.env'].flatMap((e) =>
    [
      'SLACK_BOT_TOKEN',
      'SLACK_APP_TOKEN',
      'SLACK_SIGNING_SECRET',
      'K8S_HEALTH_PLAN_SECRET',
      'K8S_HEALTH_ALERTMANAGER_TOKEN',
      'REDIS_URL',
      'REDIS_PASSWORD',
      'REDIS_SENTINEL_PASSWORD',
    ].map((k) => `${e}.${k}`),
  ),
  // the Redis environment (config/read-env-options.ts RedisEnv)
  ...['redis', '*.redis'].flatMap((r) => ['password', 'sentinelPassword'].map((k) => `${r}.${k}`)),
];

/** A key as a path segment: quoted when it is not an identifier. */
function path(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
}
