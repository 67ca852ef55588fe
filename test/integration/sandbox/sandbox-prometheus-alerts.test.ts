import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { listSandboxScenarios } from '../../../src/sandbox/list-sandbox-scenarios.js';
import { startSandbox, type SandboxSession } from '../../../src/sandbox/start-sandbox.js';
import { startSandboxSlack, type SandboxSlack } from '../../../src/sandbox/start-sandbox-slack.js';
import { silentLogger } from '../../../src/log/logger.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';

/**
 * The sandbox's "Prometheus alerts" button (docs/sandbox.md): the session posts what Alertmanager would
 * send about the scenario's symptoms to the bot's own `POST /alertmanager`; the alerts worker groups
 * them under the root cause's thread, and the alert about an unrelated pod opens a thread of its own.
 * No Alertmanager needed.
 */
describe('sandbox: Prometheus alerts arrive and are grouped', () => {
  let redis: RedisServer | undefined;
  let slack: SandboxSlack | undefined;
  let session: SandboxSession | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    slack = await startSandboxSlack();
    const scenario = listSandboxScenarios(path.resolve('examples/scenarios')).find(
      (s) => s.name === 's3-recreation-loop-webhook-down',
    )!;
    session = await startSandbox({
      scenario,
      redisUrl: redis.url,
      slack,
      setClock: () => undefined,
      log: silentLogger,
    });
  }, 60_000);
  afterAll(async () => {
    await session?.stop();
    await slack?.close();
    await redis?.stop();
  });

  const until = async <T>(what: string, f: () => T | undefined | false, ms = 30_000): Promise<T> => {
    for (const deadline = Date.now() + ms; ;) {
      const v = f();
      if (v) return v;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}: ${JSON.stringify(slack!.messagesFor('U0PAT').map((m) => [m.threadTs, m.text]))}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('symptom alerts reply in the root-cause thread; the unrelated pod gets its own thread', async () => {
    const messages = () => slack!.messagesFor('U0PAT');
    await until('the root-cause thread', () =>
      messages().find((m) => !m.threadTs && /kyverno/.test(JSON.stringify(m.blocks))),
    );
    const sent = await session!.sendPrometheusAlerts();
    expect(sent.status).toBe(200);
    const prometheus = () => messages().filter((m) => JSON.stringify(m.blocks).includes('*Prometheus:*'));
    await until('every alert shown', () => prometheus().length === sent.alerts);
    const own = prometheus().filter((m) => !m.threadTs);
    expect(own.map((m) => m.text)).toEqual(['KubePodCrashLooping']);
    const joined = prometheus().filter((m) => m.threadTs);
    expect(joined.length).toBe(sent.alerts - 1);
    const threads = [...new Set(joined.map((m) => m.threadTs))];
    expect(threads).toHaveLength(1);
    // The thread of the root cause: the webhook that blocks the CNI.
    expect(JSON.stringify(slack!.findMessage(threads[0]!)?.blocks)).toMatch(/webhook[^"]*kyverno|kyverno[^"]*webhook/i);
    expect(joined.map((m) => m.text).sort()).toEqual(
      expect.arrayContaining(['KubeNodeNotReady', 'KubeletDown', 'KubeAPIErrorBudgetBurn']),
    );
  }, 60_000);
});
