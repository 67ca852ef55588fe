import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from '@jest/globals';
import { startFakeSlackApi } from '../support/fake-slack-api.js';
import { spawnServe } from '../support/spawn-serve.js';
import { startRedis } from '../support/start-redis.js';

/**
 * The built `serve --no-workers` with no worker anywhere: nothing scans its cluster. After three scan
 * intervals (1 s each here) /readyz names it under `unscanned` and stays 200, /metrics shows its scan
 * age, and one alert is posted in its alert channel — however many checks run.
 */
it('a cluster nobody scans: listed under unscanned (still 200), on /metrics, one alert', async () => {
  const redis = await startRedis();
  const slack = await startFakeSlackApi({ validToken: 'xoxb-unscanned' });
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-unscanned-'));
  const config = path.join(dir, 'config.yaml');
  writeFileSync(
    config,
    `clusters:\n  - name: tkc-prod\n    dump: ${JSON.stringify(path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'))}\n    slack: { alertChannel: C0ALERTS }\nscan: { intervalSeconds: 1 }\n`,
  );
  const serve = await spawnServe({
    config,
    args: ['--no-workers'],
    env: {
      SLACK_BOT_TOKEN: 'xoxb-unscanned',
      SLACK_SIGNING_SECRET: 's',
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'error',
    },
  });
  try {
    let ready: { status: number; json: Record<string, unknown> } | undefined;
    for (let i = 0; i < 200 && !ready; i++) {
      const res = await fetch(`http://127.0.0.1:${serve.port}/readyz`);
      const json = (await res.json()) as Record<string, unknown>;
      if (json.unscanned) ready = { status: res.status, json };
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready?.status).toBe(200);
    expect(ready?.json).toEqual({
      ready: true,
      redis: 'ok',
      slack: 'ok',
      unscanned: [{ cluster: 'tkc-prod', scanAgeSeconds: expect.any(Number) }],
    });
    const metrics = await (await fetch(`http://127.0.0.1:${serve.port}/metrics`)).text();
    expect(metrics).toMatch(/k8s_health_cluster_scan_age_seconds\{cluster="tkc-prod"\} [3-9]/);
    const posted = await slack.waitFor(
      'the unscanned alert',
      () => slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0ALERTS'),
      10_000,
    );
    expect(String(posted.body.text)).toContain('*tkc-prod* has not been scanned for');
    await new Promise((r) => setTimeout(r, 2500)); // two more checks
    expect(slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS')).toHaveLength(1);
  } finally {
    await serve.kill();
    await slack.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
