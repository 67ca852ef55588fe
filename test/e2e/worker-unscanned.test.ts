import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from '@jest/globals';
import { startFakeSlackApi } from '../support/fake-slack-api.js';
import { spawnServe } from '../support/spawn-serve.js';
import { spawnWorker } from '../support/spawn-worker.js';
import { startRedis } from '../support/start-redis.js';

/**
 * The built `worker --only notify,expiry` twice and no `serve`: nothing scans the cluster, and no serve
 * is there to notice. After three scan intervals (1 s each here) each worker's /readyz names it under
 * `unscanned` (still 200) and its /metrics shows the scan age, and ONE alert is posted in the cluster's
 * alert channel by one of them. A `serve --no-workers` started afterwards lists the same cluster and
 * posts nothing more: the episode's alert is shared by every serve and worker process.
 */
it('workers without serve: unscanned on each worker /readyz (still 200) and /metrics, one alert among all processes', async () => {
  const redis = await startRedis();
  const slack = await startFakeSlackApi({ validToken: 'xoxb-unscanned' });
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-worker-unscanned-'));
  const config = path.join(dir, 'config.yaml');
  writeFileSync(
    config,
    `clusters:\n  - name: tkc-prod\n    dump: ${JSON.stringify(path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'))}\n    slack: { alertChannel: C0ALERTS }\nscan: { intervalSeconds: 1 }\n`,
  );
  const env = {
    SLACK_BOT_TOKEN: 'xoxb-unscanned',
    SLACK_SIGNING_SECRET: 's',
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: redis.url,
    LOG_LEVEL: 'error',
  };
  const alerts = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS');
  const unscannedAt = async (port: number) => {
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      const json = (await res.json()) as Record<string, unknown>;
      if (json.unscanned) return { status: res.status, json };
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  };
  const workers = [
    await spawnWorker({ config, args: ['--only', 'notify,expiry'], env }),
    await spawnWorker({ config, args: ['--only', 'notify,expiry'], env }),
  ];
  let serve: Awaited<ReturnType<typeof spawnServe>> | undefined;
  try {
    for (const w of workers) {
      expect(await unscannedAt(w.port)).toEqual({
        status: 200,
        json: {
          ready: true,
          redis: 'ok',
          workers: 'k8s-health-notify, k8s-health-approvals',
          unscanned: [{ cluster: 'tkc-prod', scanAgeSeconds: expect.any(Number) }],
        },
      });
      const metrics = await (await fetch(`http://127.0.0.1:${w.port}/metrics`)).text();
      expect(metrics).toMatch(/k8s_health_cluster_scan_age_seconds\{cluster="tkc-prod"\} [3-9]/);
    }
    const posted = await slack.waitFor('the unscanned alert', () => alerts()[0], 10_000);
    expect(String(posted.body.text)).toContain('*tkc-prod* has not been scanned for');

    serve = await spawnServe({ config, args: ['--no-workers'], env });
    expect((await unscannedAt(serve.port))?.json.unscanned).toEqual([
      { cluster: 'tkc-prod', scanAgeSeconds: expect.any(Number) },
    ]);
    await new Promise((r) => setTimeout(r, 2500)); // two more checks in each of the three processes
    expect(alerts()).toHaveLength(1);
  } finally {
    await serve?.kill();
    for (const w of workers) await w.kill();
    await slack.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
