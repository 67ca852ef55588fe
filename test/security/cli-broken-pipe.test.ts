import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { createAuditLog } from '../../src/store/audit-log.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

let redis: RedisServer;

beforeAll(async () => {
  if (!existsSync('dist/cli/run-cli.js'))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  redis = await startRedis();
  const client = new Redis(redis.url);
  try {
    // Far more than a pipe holds (64 KiB), so the CLI is still writing when the reader goes.
    const audit = createAuditLog(client, { keyPrefix: REDIS_PREFIX });
    for (let i = 0; i < 400; i++)
      await audit.append({
        at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
        cluster: 'prod-east',
        requestId: `r_${i}`,
        event: 'proposed',
        action: 'deployment.scale',
        user: 'U0PAT',
        detail: 'x'.repeat(900),
      });
  } finally {
    client.disconnect();
  }
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

/**
 * `k8s-health audit | head -1`: the reader closes the pipe after its first line. The CLI then meets
 * EPIPE on its next write and must leave quietly — no stack trace, exit 0 — not crash on an unhandled
 * 'error' event.
 */
describe('k8s-health audit | head', () => {
  it('exits quietly with 0 when the reader closes the pipe', async () => {
    const child = spawn(process.execPath, ['bin/k8s-health.js', 'audit', '--limit', '400'], {
      env: { PATH: process.env.PATH ?? '', REDIS_URL: redis.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (c: Buffer) => resolve(c.toString())),
    );
    child.stdout.destroy(); // the reader is gone
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(first).toMatch(/prod-east {2}r_\d+ {2}proposed/);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
