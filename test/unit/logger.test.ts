import { describe, expect, it } from '@jest/globals';
import { LogLevel } from '@slack/bolt';
import { createLogger, createProcessLogger, loadPrettyPrinter } from '../../src/log/create-logger.js';
import { K8sHealthError } from '../../src/errors/k8s-health-error.js';
import { createBoltLogger } from '../../src/slack/receive/create-bolt-logger.js';
import { createAuditLog } from '../../src/store/audit-log.js';
import { captureLogs } from '../support/capture-logs.js';
import { HOSTILE_ALL } from '../support/hostile-text.js';

/** Structured logs: JSON lines, levels, child loggers, redacted secrets, neutralized pretty output. */

/** Distinct markers: any of them in the output is a leak. */
const SECRETS = {
  botToken: 'xoxb-SECRET-BOT-TOKEN',
  appToken: 'xapp-SECRET-APP-TOKEN',
  signingSecret: 'SECRET-SIGNING-SECRET',
  planSecret: 'SECRET-PLAN-SECRET-0123456789abcdef',
  etcdKey: '-----BEGIN PRIVATE KEY-----SECRET-ETCD-KEY',
  bearer: 'Bearer SECRET-BEARER-TOKEN',
  kubeToken: 'SECRET-KUBECONFIG-TOKEN',
  kubeKeyData: 'SECRET-CLIENT-KEY-DATA',
  kubePassword: 'SECRET-KUBE-PASSWORD',
  redisUrl: 'redis://:SECRET-REDIS-PASSWORD@10.0.0.5:6379',
};

describe('redaction', () => {
  it('no secret of any known kind reaches the output, at the top level, one level down or in the known nested places', () => {
    const { log, lines } = captureLogs();
    log.info(
      {
        token: SECRETS.botToken,
        appToken: SECRETS.appToken,
        signingSecret: SECRETS.signingSecret,
        planSecret: SECRETS.planSecret,
      },
      'top level',
    );
    log.info(
      {
        env: {
          SLACK_BOT_TOKEN: SECRETS.botToken,
          SLACK_SIGNING_SECRET: SECRETS.signingSecret,
          K8S_HEALTH_PLAN_SECRET: SECRETS.planSecret,
          SLACK_APP_TOKEN: SECRETS.appToken,
          REDIS_URL: SECRETS.redisUrl,
        },
      },
      'an environment map',
    );
    log.info(
      {
        slack: { botToken: SECRETS.botToken, signingSecret: SECRETS.signingSecret },
        options: {
          slackBotToken: SECRETS.botToken,
          slackAppToken: SECRETS.appToken,
          slackSigningSecret: SECRETS.signingSecret,
          planSecret: SECRETS.planSecret,
          redisUrl: SECRETS.redisUrl,
        },
      },
      'one level down',
    );
    log.info(
      {
        headers: { authorization: SECRETS.bearer },
        req: { headers: { Authorization: SECRETS.bearer } },
        request: { headers: { authorization: SECRETS.bearer } },
      },
      'http',
    );
    log.info(
      {
        etcd: { endpoints: ['https://10.0.0.11:2379'], tls: { key: SECRETS.etcdKey, cert: 'c', ca: 'a' } },
        tls: { key: SECRETS.etcdKey },
      },
      'etcd',
    );
    log.info(
      {
        kubeconfig: {
          users: [
            {
              name: 'admin',
              user: {
                token: SECRETS.kubeToken,
                'client-key-data': SECRETS.kubeKeyData,
                password: SECRETS.kubePassword,
              },
            },
          ],
        },
        users: [{ name: 'bot', user: { token: SECRETS.kubeToken, 'client-key-data': SECRETS.kubeKeyData } }],
        user: { token: SECRETS.kubeToken, password: SECRETS.kubePassword },
      },
      'kubeconfig',
    );
    log.child({ cluster: 'prod-east' }).warn({ token: SECRETS.botToken }, 'from a child');
    const out = lines.join('\n');
    for (const [what, secret] of Object.entries(SECRETS))
      expect({ what, leaked: out.includes(secret) }).toEqual({ what, leaked: false });
    expect(out.match(/\[redacted\]/g)!.length).toBeGreaterThanOrEqual(30);
    // What is not secret stays: the etcd endpoints, the user's name, the cluster of the child.
    expect(out).toContain('https://10.0.0.11:2379');
    expect(out).toContain('"name":"admin"');
    expect(out).toContain('"cluster":"prod-east"');
  });

  it('audit events are log lines too, with their chain fields, and without secrets', async () => {
    const { log, records } = captureLogs();
    const calls: unknown[][] = [];
    const redis = { get: async () => null, eval: async (...a: unknown[]) => (calls.push(a), '1-0') } as never;
    await createAuditLog(redis, { keyPrefix: 't:', log }).append({
      at: '2025-01-01T00:00:00Z',
      cluster: 'prod-east',
      requestId: 'r_1',
      event: 'approved',
      action: 'deployment.scale',
      user: 'U0ANN',
      detail: '1 of 2 approvals',
    });
    expect(records).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'audit approved',
        audit: true,
        requestId: 'r_1',
        cluster: 'prod-east',
        user: 'U0ANN',
        action: 'deployment.scale',
      }),
    ]);
    expect(calls).toHaveLength(1);
  });
});

describe('format, levels and child loggers', () => {
  it('JSON lines with the level as a word, ISO time, the base fields and the child bindings; below the level nothing', () => {
    const lines: string[] = [];
    const log = createLogger({
      level: 'warn',
      destination: { write: (l) => void lines.push(l) },
      base: { process: 'worker' },
    });
    log.info('hidden');
    log.child({ queue: 'k8s-health-scan', jobId: '42', cluster: 'prod-east' }).warn({ error: 'x' }, 'job failed');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]!);
    expect(r).toEqual({
      level: 'warn',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      process: 'worker',
      queue: 'k8s-health-scan',
      jobId: '42',
      cluster: 'prod-east',
      error: 'x',
      msg: 'job failed',
    });
  });

  it('untrusted text stays on its line in JSON: newlines, ESC and every other C0 control are escaped', () => {
    const { log, lines } = captureLogs();
    log.warn({ error: HOSTILE_ALL }, HOSTILE_ALL);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f]/);
    expect(JSON.parse(lines[0]!).msg).toBe(HOSTILE_ALL);
  });

  it('lifecycle lines are written whatever LOG_LEVEL: the process logger announces at info under error', async () => {
    const lines: string[] = [];
    const { log, announce } = await createProcessLogger({
      level: 'error',
      destination: { write: (l) => void lines.push(l) },
      base: { process: 'serve' },
    });
    log.info('not shown');
    log.warn('not shown either');
    announce.info({ port: 3000 }, 'k8s-health serve listening on :3000 (http mode)');
    announce.warn('K8S_HEALTH_PLAN_SECRET is not set');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
      'k8s-health serve listening on :3000 (http mode)',
      'K8S_HEALTH_PLAN_SECRET is not set',
    ]);
  });
});

describe('pretty output for a person at a terminal', () => {
  it('is readable and neutralized: no escape sequence, no forged line, secrets still redacted', async () => {
    const out: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: { write: (l) => void out.push(l) },
      pretty: await loadPrettyPrinter(),
    });
    log.warn({ cluster: 'prod\nFORGED', token: SECRETS.botToken }, `scan failed: ${HOSTILE_ALL}`);
    const text = out.join('');
    expect(text).toContain('scan failed:');
    expect(text).not.toContain(SECRETS.botToken);
    // Only pino-pretty's own colours (SGR: ESC [ digits m) may remain; the hostile text's are gone.
    expect(text.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u009b\u202e\u200b]/);
    expect(text).not.toMatch(/\nFORGED/);
    expect(text.split('\n').filter((l) => l.includes('HOSTILE-ALL')).length).toBeLessThanOrEqual(1);
  });
});

describe("Bolt's logger adapter", () => {
  it("writes Bolt's lines as ours, at Bolt's level, with its name", () => {
    const { log, records } = captureLogs();
    const bolt = createBoltLogger(log, LogLevel.WARN);
    bolt.info('dropped below the level');
    bolt.error('An unhandled error occurred while Bolt processed an event', new Error('boom'), { a: 1 });
    bolt.setName('bolt-app');
    bolt.warn('second');
    expect(bolt.getLevel()).toBe(LogLevel.WARN);
    expect(records).toEqual([
      expect.objectContaining({
        level: 'error',
        component: 'bolt',
        msg: 'An unhandled error occurred while Bolt processed an event Error: boom {"a":1}',
      }),
      expect.objectContaining({ level: 'warn', component: 'bolt-app', msg: 'second' }),
    ]);
  });
});

describe('errors in logs', () => {
  it('`err` is serialized by pino with its type, message, stack, code and cause; secrets on it stay redacted', () => {
    const { log, lines } = captureLogs();
    const cause = new Error('connect ECONNREFUSED 10.0.0.5:6379');
    const err = Object.assign(
      new K8sHealthError('E_KUBE_UNREACHABLE', 'the thing failed: check the connection', { cause }),
      { token: SECRETS.botToken },
    );
    log.warn({ cluster: 'prod-east', err }, 'something failed');
    const line = JSON.parse(lines.join('\n').trim().split('\n').pop()!) as {
      err: { type: string; message: string; stack: string; code: string; token: string };
    };
    expect(line.err).toMatchObject({ type: 'K8sHealthError', code: 'E_KUBE_UNREACHABLE', token: '[redacted]' });
    expect(line.err.message).toContain('the thing failed: check the connection');
    expect(line.err.stack).toContain('caused by: Error: connect ECONNREFUSED 10.0.0.5:6379');
    expect(lines.join('\n')).not.toContain(SECRETS.botToken);
  });
});
