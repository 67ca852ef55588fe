import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { createAlertmanagerMetrics } from '../../../src/alertmanager/create-alertmanager-metrics.js';
import { createAlertmanagerRoute } from '../../../src/alertmanager/create-alertmanager-route.js';
import type { AlertmanagerNotification } from '../../../src/alertmanager/webhook-payload.js';
import { silentLogger } from '../../../src/log/logger.js';
import { firingAlert, webhookBody } from '../../support/alertmanager-webhook.js';

/** The webhook route on a real HTTP server: token, body cap, payload checks, queue hand-over. */
describe('POST /alertmanager', () => {
  const TOKEN = 'route-test-token-0123456789';
  const queued: AlertmanagerNotification[] = [];
  let failQueue = false;
  const registry = new Registry();
  const metrics = createAlertmanagerMetrics(registry);
  const servers: http.Server[] = [];
  const serve = async (token: string | undefined, maxBodyBytes = 4096) => {
    const route = createAlertmanagerRoute({
      token,
      maxBodyBytes,
      maxAlertsPerRequest: 2,
      enqueue: async (n) => {
        if (failQueue) throw new Error('Connection is closed.');
        queued.push(n);
      },
      metrics,
      log: silentLogger,
      now: () => new Date('2026-11-28T01:00:00Z'),
    });
    const server = http.createServer((req, res) =>
      req.url === route.path && route.method.includes(req.method ?? '')
        ? route.handler(req, res)
        : res.writeHead(404).end(),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}`;
  };
  let url = '';
  beforeAll(async () => {
    url = await serve(TOKEN);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });
  const post = async (body: string, auth: string | null = `Bearer ${TOKEN}`, to = url) => {
    const res = await fetch(to, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      body,
    });
    return `${res.status} ${await res.text()}`;
  };
  const alert = (i: number) =>
    firingAlert(`abc${i}`, { alertname: 'KubeNodeNotReady', node: `n${i}` }, {}, '2026-11-28T00:59:00Z');
  const payload = (n: number) =>
    webhookBody(
      '{}:{}',
      Array.from({ length: n }, (_, i) => alert(i)),
    );

  it('without a token configured the endpoint does not exist', async () => {
    expect(await post(payload(1), `Bearer ${TOKEN}`, await serve(undefined))).toBe(
      '404 not found: set K8S_HEALTH_ALERTMANAGER_TOKEN to receive Alertmanager webhooks\n',
    );
  });

  it('refuses a missing or wrong bearer token', async () => {
    expect(await post(payload(1), null)).toBe(
      '401 missing or wrong bearer token: set http_config.authorization.credentials to K8S_HEALTH_ALERTMANAGER_TOKEN\n',
    );
    expect(await post(payload(1), 'Bearer nope')).toMatch(/^401 /);
    expect(await post(payload(1), `Basic ${TOKEN}`)).toMatch(/^401 /);
  });

  it('refuses malformed JSON, another version and a body over maxBodyBytes with one line, nothing queued', async () => {
    expect(await post('{"version":')).toBe('400 body is not JSON: send Alertmanager webhook payload version 4\n');
    expect(await post(JSON.stringify({ version: '3', alerts: [] }))).toMatch(
      /^400 payload version "3" is not supported/,
    );
    expect(await post(JSON.stringify({ version: '4', pad: 'x'.repeat(5000) }))).toBe(
      '413 body over alertmanager.maxBodyBytes (4096 bytes): lower max_alerts in the webhook receiver\n',
    );
    expect(queued).toEqual([]);
  });

  it('queues a notification and answers 200; beyond maxAlertsPerRequest the rest is counted; a queue failure is a 503', async () => {
    expect(await post(payload(5))).toBe('200 queued\n');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.alerts.map((a) => a.labels.node)).toEqual(['n0', 'n1']);
    expect(queued[0]!.overflow).toBe(3);
    failQueue = true;
    expect(await post(payload(1))).toBe('503 not queued: Connection is closed.\n');
    failQueue = false;
    const text = await registry.metrics();
    for (const [outcome, n] of [
      ['accepted', 1],
      ['unauthorized', 3],
      ['malformed', 1],
      ['version', 1],
      ['too-large', 1],
      ['unavailable', 1],
    ] as const) {
      expect(text).toContain(`k8s_health_alertmanager_requests_total{outcome="${outcome}"} ${n}`);
    }
  });
});
