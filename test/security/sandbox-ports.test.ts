import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { webApi } from '@slack/bolt';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { startSandboxSlack, type SandboxSlack } from '../../src/sandbox/start-sandbox-slack.js';
import { createTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { CoreV1Api } from '@kubernetes/client-node';

/** One raw request as a browser page could make it (node:http sends Host and Origin as written). */
function request(
  port: number,
  o: { method: string; path: string; host?: string; origin?: string; type?: string; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: o.host ?? `127.0.0.1:${port}` };
    if (o.origin) headers.origin = o.origin;
    if (o.type) headers['content-type'] = o.type;
    const req = http.request({ host: '127.0.0.1', port, method: o.method, path: o.path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const configMap = JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'planted' } });

/**
 * The sandbox's simulated kube-API and Slack API listen on loopback ports a web page in the same
 * browser could find. A DNS-rebinding page (another Host), a cross-site write (another Origin) and a
 * CORS-simple `text/plain` POST, which needs no preflight, are refused there as on the page itself;
 * the bot's own clients are not affected.
 */
describe('sandbox loopback ports refuse other web pages', () => {
  let kube: FakeKubeApi;
  let slack: SandboxSlack;
  beforeAll(async () => {
    kube = await startFakeKubeApi({
      objects: [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } as KubeObject],
    });
    slack = await startSandboxSlack();
  });
  afterAll(async () => {
    await kube.close();
    await slack.close();
  });

  it('kube-API: another Host → 421, another Origin → 403, a text/plain POST → 415; nothing is written', async () => {
    const p = kube.port;
    expect(await request(p, { method: 'GET', path: '/api/v1/nodes', host: `evil.example:${p}` })).toBe(421);
    expect(
      await request(p, {
        method: 'POST',
        path: '/api/v1/nodes',
        host: `rebound.evil.example:${p}`,
        type: 'application/json',
        body: configMap,
      }),
    ).toBe(421);
    expect(
      await request(p, {
        method: 'POST',
        path: '/api/v1/nodes',
        origin: 'https://evil.example',
        type: 'application/json',
        body: configMap,
      }),
    ).toBe(403);
    expect(await request(p, { method: 'POST', path: '/api/v1/nodes', type: 'text/plain', body: configMap })).toBe(415);
    expect(
      await request(p, {
        method: 'POST',
        path: '/api/v1/nodes',
        type: 'application/x-www-form-urlencoded',
        body: configMap,
      }),
    ).toBe(415);
    expect(kube.writes).toEqual([]);
    expect(kube.find('Node', 'planted')).toBeUndefined();
    // The bot's client (real client-node) still reads and writes.
    const api = createTestKubeConfig(kube.url, 'sandbox').makeApiClient(CoreV1Api);
    expect((await api.listNode()).items.map((n) => n.metadata?.name)).toEqual(['n1']);
    expect(
      await request(p, {
        method: 'POST',
        path: '/api/v1/nodes',
        host: `localhost:${p}`,
        type: 'application/json',
        body: configMap,
      }),
    ).toBe(201);
  });

  it("Slack API: another Host → 421, another Origin → 403; the bot's Web API client still works", async () => {
    const port = Number(new URL(slack.apiUrl).port);
    const before = slack.version;
    expect(
      await request(port, {
        method: 'POST',
        path: '/api/chat.postMessage',
        host: `evil.example:${port}`,
        type: 'application/x-www-form-urlencoded',
        body: `token=${slack.token}&channel=C1&text=x`,
      }),
    ).toBe(421);
    expect(
      await request(port, {
        method: 'POST',
        path: '/api/chat.postMessage',
        origin: 'https://evil.example',
        type: 'application/x-www-form-urlencoded',
        body: `token=${slack.token}&channel=C1&text=x`,
      }),
    ).toBe(403);
    expect(slack.version).toBe(before); // nothing was posted
    expect((await new webApi.WebClient(slack.token, { slackApiUrl: slack.apiUrl }).auth.test()).ok).toBe(true);
  });
});
