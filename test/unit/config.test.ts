import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, parseConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/config/config-error.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { DEFAULT_THRESHOLDS as PLAIN_DEFAULT_THRESHOLDS } from '../../src/config/defaults.js';
import { readEnvOptions } from '../../src/config/read-env-options.js';

const configDir = path.resolve('config');

describe('config files', () => {
  it.each(readdirSync(configDir).filter((f) => /\.ya?ml$/.test(f)))('config/%s loads and validates', async (file) => {
    const config = await loadConfig(path.join(configDir, file));
    expect(config.clusters.length).toBeGreaterThan(0);
    for (const c of config.clusters) if (c.dump) expect(path.isAbsolute(c.dump)).toBe(true);
  });

  it('applies every default to an empty file', () => {
    const c = parseConfig({}, '/x');
    expect(c.clusters).toEqual([]);
    expect(c.scan).toEqual({
      intervalSeconds: 60,
      freshSeconds: 30,
      resolveAfterScans: 3,
      pausedReminderHours: 4,
      watch: true,
      leases: true,
      leaseSeconds: 15,
      debounceSeconds: 2,
      correlateSeconds: 60,
    });
    expect(c.approvals).toEqual({
      required: 2,
      ttlMinutes: 30,
      confirmByTyping: false,
      allowSinglePerson: false,
      executionDeadlineMinutes: 10,
    });
    expect(c.slack).toEqual({});
    expect(c.thresholds).toEqual(DEFAULT_THRESHOLDS);
    expect(c.thresholds.provisioningMinutes).toBe(20);
    expect(c.thresholds.loopReplacements).toBe(3);
    expect(c.thresholds.loopWindowMinutes).toBe(90);
  });

  it('resolves dump and kubeconfig paths relative to the config file', () => {
    const c = parseConfig(
      {
        clusters: [
          { name: 'a', dump: 'd' },
          { name: 'b', workload: { kubeconfig: 'k' } },
        ],
      },
      '/etc/k8s',
    );
    expect(c.clusters[0]!.dump).toBe('/etc/k8s/d');
    expect(c.clusters[1]!.workload!.kubeconfig).toBe('/etc/k8s/k');
    expect(c.clusters[0]!.remediation.enabled).toBe(false);
  });

  it('names every bad key with its path', () => {
    const bad = {
      clusters: [
        { name: 'Bad Name', dump: 'x', remediation: { enabled: true } },
        { name: 'ok', workload: {}, dump: 'y' },
      ],
      scan: { intervalSeconds: 0 },
      thresholds: { provisioningMinutes: 'soon' },
      surprise: 1,
    };
    let message = '';
    try {
      parseConfig(bad, '/x', 'my.yaml');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/^my\.yaml: /);
    expect(message).toContain('clusters[0].name: must match [a-z0-9-]+');
    expect(message).toContain('clusters[0].remediation.enabled: a dump-backed cluster can never be remediated');
    expect(message).toContain('clusters[1]: exactly one of `dump` or `workload` must be set');
    expect(message).toContain('scan.intervalSeconds');
    expect(message).toContain('thresholds.provisioningMinutes');
    expect(message).toContain('surprise');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('slack.runbookBaseUrl: an http(s) URL that cannot break out of the runbook link, else one line naming it', () => {
    expect(
      parseConfig({ slack: { runbookBaseUrl: 'https://git.example.com/sre/k8s-health-bot/blob/main' } }, '/x').slack
        .runbookBaseUrl,
    ).toBe('https://git.example.com/sre/k8s-health-bot/blob/main');
    for (const bad of ['https://x.example/a|<!channel>', 'javascript:alert(1)', 'ftp://x.example/docs', 'not a url']) {
      expect(() => parseConfig({ slack: { runbookBaseUrl: bad } }, '/x', 'my.yaml')).toThrow(
        /^my\.yaml: slack\.runbookBaseUrl: /,
      );
    }
  });

  it('refuses approvals.required below 2 unless allowSinglePerson names the risk', () => {
    let message = '';
    try {
      parseConfig({ approvals: { required: 1 } }, '/x', 'my.yaml');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toBe(
      'my.yaml: approvals.required: 1 lets a single approver run a fix on a cluster alone (two-person rule, docs/security.md): use at least 2, or set approvals.allowSinglePerson: true to accept that risk',
    );
    expect(parseConfig({ approvals: { required: 1, allowSinglePerson: true } }, '/x').approvals.required).toBe(1);
    expect(() => parseConfig({ approvals: { required: 0, allowSinglePerson: true } }, '/x')).toThrow(
      /approvals\.required/,
    );
    expect(parseConfig({ approvals: { required: 3 } }, '/x').approvals.required).toBe(3);
  });

  it('takes the Slack workspace and org ids, and names a malformed one', () => {
    expect(parseConfig({ slack: { teamId: 'T0TEAM', enterpriseId: 'E0ORG' } }, '/x').slack).toEqual({
      teamId: 'T0TEAM',
      enterpriseId: 'E0ORG',
    });
    expect(() => parseConfig({ slack: { teamId: 'U0NOTATEAM' } }, '/x')).toThrow(
      'slack.teamId: must be a Slack workspace id such as T0123ABCD',
    );
    expect(() => parseConfig({ slack: { enterpriseId: 'T0TEAM' } }, '/x')).toThrow(
      'slack.enterpriseId: must be a Slack Enterprise Grid org id',
    );
    expect(() => parseConfig({ slack: { team: 'T0TEAM' } }, '/x')).toThrow(/slack/);
  });

  it('rejects duplicate cluster names, unreadable files and bad YAML in one line', async () => {
    expect(() =>
      parseConfig(
        {
          clusters: [
            { name: 'a', dump: 'x' },
            { name: 'a', dump: 'y' },
          ],
        },
        '/',
      ),
    ).toThrow('clusters[1].name: duplicate cluster name "a"');
    await expect(loadConfig('/nonexistent/k8s-health.yaml')).rejects.toThrow(
      'cannot read config file /nonexistent/k8s-health.yaml: ENOENT',
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    writeFileSync(path.join(dir, 'bad.yaml'), 'clusters: [\n  - name: a\n');
    await expect(loadConfig(path.join(dir, 'bad.yaml'))).rejects.toThrow(/bad\.yaml: not valid YAML/);
  });
});

describe('readEnvOptions', () => {
  it('reads every documented variable with defaults', () => {
    expect(readEnvOptions({})).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      redis: { url: 'redis://127.0.0.1:6379' },
      port: 3000,
      logLevel: 'info',
      slackBotToken: undefined,
      slackSigningSecret: undefined,
      slackAppToken: undefined,
      slackApiUrl: undefined,
      configFile: undefined,
    });
    const o = readEnvOptions({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_API_URL: 'http://127.0.0.1:1/api/',
      REDIS_URL: 'redis://r:1',
      K8S_HEALTH_CONFIG: '/c.yaml',
      PORT: '8080',
      LOG_LEVEL: 'DEBUG',
    });
    expect(o).toMatchObject({
      slackBotToken: 'xoxb-1',
      slackAppToken: 'xapp-1',
      port: 8080,
      logLevel: 'debug',
      configFile: '/c.yaml',
      redisUrl: 'redis://r:1',
    });
  });
  it('reads a Sentinel topology (it wins over REDIS_URL) and the Redis credentials; a topology that is not one fails naming the variable', () => {
    const o = readEnvOptions({
      REDIS_URL: 'redis://ignored:1',
      REDIS_SENTINELS: 's1:26379, [::1]:26380',
      REDIS_SENTINEL_MASTER: 'mymaster',
      REDIS_USERNAME: 'bot',
      REDIS_PASSWORD: 'pw',
      REDIS_SENTINEL_PASSWORD: 'spw',
      REDIS_TLS_CA_FILE: '/ca.pem',
    });
    expect(o.redis).toEqual({
      url: 'redis://ignored:1',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      sentinelMaster: 'mymaster',
      username: 'bot',
      password: 'pw',
      sentinelPassword: 'spw',
      tlsCaFile: '/ca.pem',
    });
    expect(() => readEnvOptions({ REDIS_SENTINELS: 's1:26379' })).toThrow(
      'REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not',
    );
    expect(() => readEnvOptions({ REDIS_SENTINELS: 's1', REDIS_SENTINEL_MASTER: 'm' })).toThrow(
      'REDIS_SENTINELS must be host:port pairs separated by commas, got "s1"',
    );
    expect(() => readEnvOptions({ REDIS_SENTINEL_MASTER: 'm' })).toThrow(
      'REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not',
    );
  });
  it('reads a Redis Cluster topology (it wins over REDIS_URL) with the credentials; a cluster also watched by sentinels, or a node that is not host:port, fails naming the variable', () => {
    const o = readEnvOptions({
      REDIS_URL: 'redis://ignored:1',
      REDIS_CLUSTER_NODES: 'n1:7000,n2:7001 , [::1]:7002',
      REDIS_USERNAME: 'bot',
      REDIS_PASSWORD: 'pw',
      REDIS_TLS_CA_FILE: '/ca.pem',
    });
    expect(o.redis).toEqual({
      url: 'redis://ignored:1',
      clusterNodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'bot',
      password: 'pw',
      tlsCaFile: '/ca.pem',
    });
    expect(() => readEnvOptions({ REDIS_CLUSTER_NODES: 'n1' })).toThrow(
      'REDIS_CLUSTER_NODES must be host:port pairs separated by commas, got "n1"',
    );
    expect(() =>
      readEnvOptions({ REDIS_CLUSTER_NODES: 'n1:7000', REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_MASTER: 'm' }),
    ).toThrow('REDIS_CLUSTER_NODES and REDIS_SENTINELS are both set');
  });
  it('rejects a bad PORT or LOG_LEVEL with a message naming the variable', () => {
    expect(() => readEnvOptions({ PORT: 'http' })).toThrow('PORT must be a port number');
    expect(() => readEnvOptions({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL must be one of');
  });
});

describe('defaults read without a config file (config/defaults.ts)', () => {
  it('are what the schema gives an empty config', () => {
    expect(parseConfig({}, process.cwd()).thresholds).toEqual(PLAIN_DEFAULT_THRESHOLDS);
    expect(DEFAULT_THRESHOLDS).toBe(PLAIN_DEFAULT_THRESHOLDS);
  });
});
