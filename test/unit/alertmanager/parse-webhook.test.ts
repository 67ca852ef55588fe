import { describe, expect, it } from '@jest/globals';
import { parseWebhook } from '../../../src/alertmanager/parse-webhook.js';
import { AlertmanagerInputError } from '../../../src/alertmanager/alertmanager-input-error.js';

const alert = (i: number) => ({
  status: 'firing',
  labels: { alertname: 'KubeNodeNotReady', node: `worker-${i}`, cluster: 'prod' },
  annotations: { summary: 'Node is not ready.' },
  startsAt: '2026-11-28T01:00:00Z',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus/graph',
  fingerprint: `a1b2c3d4e5f6${String(i).padStart(4, '0')}`,
});
const body = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: '4',
    groupKey: '{}:{alertname="KubeNodeNotReady"}',
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'k8s-health',
    groupLabels: {},
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://am',
    alerts: [alert(1)],
    ...over,
  });
const opts = { maxAlerts: 1000, receivedAt: '2026-11-28T01:00:01.000Z' };
const reasonOf = (text: string) => {
  try {
    parseWebhook(text, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(AlertmanagerInputError);
    return `${(err as AlertmanagerInputError).reason}: ${(err as Error).message}`;
  }
  throw new Error('parsed');
};

describe('parseWebhook (Alertmanager payload version 4)', () => {
  it('reads a notification with its alerts, labels, annotations and times', () => {
    const n = parseWebhook(body(), opts);
    expect(n.groupKey).toBe('{}:{alertname="KubeNodeNotReady"}');
    expect(n.alerts).toHaveLength(1);
    expect(n.alerts[0]).toMatchObject({
      status: 'firing',
      fingerprint: 'a1b2c3d4e5f60001',
      labels: { node: 'worker-1' },
      annotations: { summary: 'Node is not ready.' },
    });
    expect(n.overflow).toBe(0);
    expect(n.receivedAt).toBe(opts.receivedAt);
  });

  it("keeps maxAlerts alerts and counts the rest as overflow, with Alertmanager's own truncatedAlerts", () => {
    const n = parseWebhook(body({ alerts: Array.from({ length: 7 }, (_, i) => alert(i)), truncatedAlerts: 3 }), {
      ...opts,
      maxAlerts: 5,
    });
    expect(n.alerts.map((a) => a.labels.node)).toEqual(['worker-0', 'worker-1', 'worker-2', 'worker-3', 'worker-4']);
    expect(n.overflow).toBe(2);
    expect(n.truncatedAlerts).toBe(3);
  });

  it('refuses what it cannot read with one line naming what is wrong', () => {
    expect(reasonOf('{not json')).toBe('malformed: body is not JSON: send Alertmanager webhook payload version 4');
    expect(reasonOf('[]')).toMatch(/^malformed: body is not a JSON object/);
    expect(reasonOf(body({ version: '3' }))).toBe(
      'version: payload version "3" is not supported: this endpoint reads Alertmanager webhook payload version "4"',
    );
    expect(reasonOf(body({ version: 4 }))).toMatch(/^version: payload version number is not supported/);
    expect(reasonOf(body({ alerts: {} }))).toBe('malformed: "alerts" must be an array');
    expect(reasonOf(body({ groupKey: '' }))).toBe('malformed: "groupKey" must be a non-empty string');
    expect(reasonOf(body({ alerts: [{ ...alert(1), status: 'pending' }] }))).toBe(
      'malformed: "alerts[0].status" must be "firing" or "resolved"',
    );
    expect(reasonOf(body({ alerts: [{ ...alert(1), labels: { a: 1 } }] }))).toBe(
      'malformed: "alerts[0].labels" must be an object of strings',
    );
    expect(reasonOf(body({ alerts: [{ ...alert(1), startsAt: 'yesterday' }] }))).toBe(
      'malformed: "alerts[0].startsAt" must be an RFC 3339 time',
    );
    expect(reasonOf(body({ alerts: [{ ...alert(1), fingerprint: '<script>' }] }))).toBe(
      "malformed: alerts[0].fingerprint must be Alertmanager's hex fingerprint",
    );
  });

  it('keeps labels as data, a label named __proto__ included', () => {
    const text = body().replace('"labels":{', '"labels":{"__proto__":"x",');
    const [a] = parseWebhook(text, opts).alerts;
    expect(Object.keys(a!.labels)).toEqual(['__proto__', 'alertname', 'node', 'cluster']);
    expect(Object.getPrototypeOf(a!.labels)).toBe(Object.prototype);
    expect(reasonOf(text.replace('"__proto__":"x"', '"__proto__":{}'))).toBe(
      'malformed: "alerts[0].labels" must be an object of strings',
    );
  });

  it('never echoes a hostile version string into its message', () => {
    const line = reasonOf(body({ version: '<!channel> *x*\n`rm -rf`' }));
    expect(line).not.toMatch(/[<>*`\n]/);
  });
});
