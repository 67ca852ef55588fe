import { describe, expect, it } from '@jest/globals';
import { parseWebhook } from '../../../src/alertmanager/parse-webhook.js';
import type { QueuedWebhook } from '../../../src/alertmanager/webhook-payload.js';
import { alertIntakeKeys, frameIntakeItem, readIntakeItem } from '../../../src/jobs/alert-intake.js';
import { ALERTS_JOB_OPTIONS, alertsJobId } from '../../../src/jobs/enqueue-alertmanager.js';
import { firingAlert, webhookBody } from '../../support/alertmanager-webhook.js';

/**
 * The alert intake's items: serve frames the body it received behind one header line, the forwarder reads it back
 * into the alerts job serve would have queued, and refuses what serve would never have written.
 */
describe('alert intake items', () => {
  const body = (group: string, extra: Record<string, unknown> = {}) =>
    webhookBody(
      group,
      ['a1', 'b2', 'c3'].map((f) =>
        firingAlert(
          f,
          { alertname: 'KubeNodeNotReady', node: `n-${f}`, note: 'two\nlines' },
          { summary: 'Knoten „n-1“ antwortet nicht ✗' },
        ),
      ),
      extra,
    );
  const queued = (text: string, maxAlerts = 2): QueuedWebhook => ({
    body: text,
    receivedAt: '2026-11-28T01:00:01.123Z',
    maxAlerts,
  });

  it('keeps the body byte for byte (UTF-8 included) and reads back the job serve would have queued', () => {
    const q = queued(`${body('{}:{g="x"}')}\n\n`);
    // From the bytes as received (serve's path) or from their text: the same item.
    expect(frameIntakeItem(q, Buffer.from(q.body, 'utf8')).equals(frameIntakeItem(q))).toBe(true);
    const item = frameIntakeItem(q).toString('utf8');
    expect(item.startsWith('am1 2026-11-28T01:00:01.123Z 2\n')).toBe(true);
    const read = readIntakeItem(item);
    expect(read).toEqual({
      ok: true,
      job: {
        name: 'notification',
        data: q,
        opts: { ...ALERTS_JOB_OPTIONS, jobId: alertsJobId(parseWebhook(q.body, q)) },
      },
    });
  });

  it('the job id comes from the body and maxAlerts, so a repeat is the same job and another notification is not', () => {
    const id = (q: QueuedWebhook) => {
      const read = readIntakeItem(frameIntakeItem(q).toString('utf8'));
      return read.ok ? read.job.opts.jobId : read.reason;
    };
    const a = queued(body('{}:{g="a"}'));
    expect(id(a)).toBe(id({ ...a, receivedAt: '2026-11-28T02:00:00.000Z' }));
    expect(id(a)).not.toBe(id(queued(body('{}:{g="b"}'))));
    // Another cap takes other alerts (and counts another overflow): another job.
    expect(id(a)).not.toBe(id({ ...a, maxAlerts: 3 }));
  });

  it('refuses what serve never writes, saying why in one line', () => {
    const good = frameIntakeItem(queued(body('{}:{g="a"}'))).toString('utf8');
    const reasons = [
      'hello',
      good.replace('am1', 'am2'),
      good.replace('am1 ', 'am1 x '),
      good.replace('2026-11-28T01:00:01.123Z', 'yesterday'),
      good.replace('2026-11-28T01:00:01.123Z', '2026-13-45T01:00:01.123Z'),
      good.replace(' 2\n', ' 0\n'),
      good.replace(' 2\n', ' -1\n'),
      good.replace(' 2\n', ' 2.5\n'),
      'am1 2026-11-28T01:00:01.123Z 2\n{"version":',
      `am1 2026-11-28T01:00:01.123Z 2\n${body('{}:{g="a"}', { version: '3' })}`,
      `am1 2026-11-28T01:00:01.123Z 2\n${body('', {})}`,
    ].map((item) => {
      const read = readIntakeItem(item);
      return read.ok ? 'accepted' : read.reason;
    });
    expect(reasons).toEqual([
      'not an intake item',
      'not an intake item',
      'not an intake item',
      'receivedAt is not an ISO time',
      'receivedAt is not an ISO time',
      'maxAlerts is not a positive integer',
      'maxAlerts is not a positive integer',
      'maxAlerts is not a positive integer',
      'body is not JSON: send Alertmanager webhook payload version 4',
      'payload version "3" is not supported: this endpoint reads Alertmanager webhook payload version "4"',
      '"groupKey" must be a non-empty string',
    ]);
  });

  it('its keys share one hash tag (one slot of a Redis Cluster)', () => {
    const k = alertIntakeKeys('k8s-health:');
    const all = [k.pending, k.forwarding('w-1'), k.forwarders, k.heartbeat('w-1'), k.dropped];
    expect(all).toEqual([
      '{k8s-health:alert-intake}:alert-intake',
      '{k8s-health:alert-intake}:alert-intake:forwarding:w-1',
      '{k8s-health:alert-intake}:alert-intake:forwarders',
      '{k8s-health:alert-intake}:alert-intake:forwarder:w-1',
      '{k8s-health:alert-intake}:alert-intake:dropped',
    ]);
  });
});
