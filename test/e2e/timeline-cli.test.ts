/**
 * `k8s-health timeline` end to end: real scan jobs over the drain-blocked-by-pdb scenario (healthy
 * t00, blocked t45, then healthy again) write the alert state and the "what changed" log to a real Redis,
 * a real approval flow (signed Bolt requests, remediate worker) skips the blocked drain and audits it, and
 * the built CLI prints the Markdown timeline from those records.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { parseConfig } from '../../src/config/load-config.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { escapeMarkdown } from '../../src/text/escape-markdown.js';
import { runScanJob } from '../../src/jobs/workers/scan.js';
import { createAlertStateStore } from '../../src/alerts/alert-state-store.js';
import { createRedisBaselineStore } from '../../src/store/baseline-store.js';
import { RedisHistory } from '../../src/store/redis-history.js';
import { createReportStore } from '../../src/store/report-store.js';
import { startApprovalBot } from '../support/start-approval-bot.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

const SCENARIO = path.resolve('examples/scenarios/drain-blocked-by-pdb');
const BLOCKED = 'shop-prod-md-0-7d9f8-b5xkq';

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['bin/k8s-health.js', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 60000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of the healthy t00 dump captured at another time (the cluster healthy again after the fix). */
function healthyAt(dir: string, iso: string): string {
  const out = path.join(dir, `healthy-${iso.replace(/[:]/g, '')}`);
  cpSync(path.join(SCENARIO, 't00'), out, { recursive: true });
  const meta = JSON.parse(readFileSync(path.join(out, 'meta.json'), 'utf8'));
  writeFileSync(path.join(out, 'meta.json'), JSON.stringify({ ...meta, collectedAt: iso }));
  return out;
}

let redisServer: RedisServer;
let tmp: string;
let skipRequest = '';

beforeAll(async () => {
  if (!existsSync('dist/cli/run-cli.js'))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  redisServer = await startRedis();
  tmp = mkdtempSync(path.join(tmpdir(), 'k8s-health-timeline-'));
  const redis = new Redis(redisServer.url);
  try {
    const keyPrefix = REDIS_PREFIX;
    const deps = {
      history: new RedisHistory(redis, { keyPrefix }),
      baselines: createRedisBaselineStore(redis, { keyPrefix }),
      reports: createReportStore(redis, { keyPrefix }),
      alerts: createAlertStateStore(redis, { keyPrefix }),
    };
    // The same cluster scanned from successive captures, as a dump-backed cluster whose directory is swapped.
    const scans = [
      path.join(SCENARIO, 't00'),
      path.join(SCENARIO, 't45'),
      ...['2025-03-04T11:10:00Z', '2025-03-04T11:11:00Z', '2025-03-04T11:12:00Z', '2025-03-04T11:13:00Z'].map((t) =>
        healthyAt(tmp, t),
      ),
    ];
    for (const dump of scans) {
      const config = parseConfig(
        { clusters: [{ name: 'shop-prod', dump, slack: { alertChannel: 'C0ALERTS' } }] },
        '/tmp',
      );
      await runScanJob({ cluster: 'shop-prod' }, { config, ...deps });
    }
  } finally {
    redis.disconnect();
  }
  // The fix, through the real approval path, on the Machine as t45 shows it.
  const machines = (parse(readFileSync(path.join(SCENARIO, 't45', 'machines.yaml'), 'utf8')) as { items: KubeObject[] })
    .items;
  const bot = await startApprovalBot({
    objects: machines.filter((m) => m.metadata.name === BLOCKED),
    redisServer,
    cluster: 'shop-prod',
  });
  try {
    const run = await bot.runApproved({
      action: 'machine.skip-drain',
      params: { namespace: 'clusters', name: BLOCKED },
      label: `Skip drain: ${BLOCKED}`,
      risk: 'r',
    });
    if (run.request.status !== 'succeeded') throw new Error(`skip-drain did not succeed: ${run.request.result}`);
    skipRequest = run.requestId;
  } finally {
    await bot.stop();
  }
}, 120_000);

afterAll(async () => {
  await redisServer?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('k8s-health timeline', () => {
  it('prints the incident as Markdown: findings first seen / resolved, what changed, and who proposed, approved and ran the fix', () => {
    const r = cli(['timeline', 'shop-prod'], { REDIS_URL: redisServer.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md).toMatch(/^# Incident timeline: shop-prod\n/);
    expect(md).toContain(
      `| \`capi.drain-blocked\` Machine clusters/${BLOCKED} cannot be deleted: drain of node ${BLOCKED} refused by PodDisruptionBudget shop/db (for 47m) | warning | Machine clusters/${BLOCKED} | 2025-03-04T10:30:00Z | 2025-03-04T10:30:00Z | 2025-03-04T11:12:00Z |`,
    );
    expect(md).toContain(
      '| 2025-03-04T10:30:00Z | **what changed** since last healthy at 2025-03-04T09:00:00Z: 4 changes — PodDisruptionBudget shop/db: added (on the failing path);',
    );
    expect(md).toContain(
      `| 2025-03-04T10:30:00Z | **opened** \`capi.drain-blocked\` (warning) on Machine clusters/${BLOCKED}`,
    );
    expect(md).toContain(
      `| 2025-03-04T11:12:00Z | **resolved** \`capi.drain-blocked\` on Machine clusters/${BLOCKED} |`,
    );
    // Request ids are random ([A-Za-z0-9_-]): the timeline escapes them like any stored text.
    const request = escapeMarkdown(skipRequest);
    for (const [event, who] of [
      ['proposed', 'U0PAT'],
      ['approved', 'U0ANN'],
      ['approved', 'U0BEN'],
    ]) {
      expect(md).toContain(`**${event}** \`machine.skip-drain\` by ${who} (request ${request})`);
    }
    expect(md).toMatch(/\*\*succeeded\*\* `machine\.skip-drain` \(request [^)]+\) — done and verified/);
    expect(md).toContain('## What changed since last healthy (2025-03-04T09:00:00Z → 2025-03-04T10:30:00Z)');
    expect(md).toContain('- on the failing path: PodDisruptionBudget shop/db: added — named by capi.drain-blocked');
  });

  it('--since leaves out what happened before; a bad --since, a cluster not in the config and an unreachable Redis are one-line errors (exit 2)', () => {
    const since = cli(['timeline', 'shop-prod', '--since', '2025-03-04T11:00:00Z'], { REDIS_URL: redisServer.url });
    expect(since.code).toBe(0);
    expect(since.stdout).not.toContain('**opened**');
    expect(since.stdout).toContain('**resolved**');
    const bad = cli(['timeline', 'shop-prod', '--since', 'yesterday'], { REDIS_URL: redisServer.url });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr.trim()).toBe(
      'k8s-health: --since must be a duration such as 90m, 6h or 2d, or an ISO time such as 2025-03-01T09:00:00Z, got "yesterday"',
    );
    const config = path.join(tmp, 'config.yaml');
    writeFileSync(config, 'clusters:\n  - name: other\n    dump: ./x\n');
    const unknown = cli(['timeline', 'shop-prod', '--config', config], { REDIS_URL: redisServer.url });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(`k8s-health: unknown cluster "shop-prod" in ${config}; configured: other`);
    const down = cli(['timeline', 'shop-prod'], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(down.code).toBe(2);
    expect(down.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(down.stderr).toContain(
      "k8s-health timeline: cannot read the bot's records from Redis (redis://127.0.0.1:1)",
    );
  });
});
