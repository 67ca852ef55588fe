import { describe, expect, it } from '@jest/globals';
import {
  fleetIncidentKey,
  isFleet,
  joinFleetIncident,
  markRecovered,
  type JoinRequest,
} from '../../../src/alerts/fleet-incident.js';
import type { Finding } from '../../../src/diagnose/finding.js';
import { notifyPriority } from '../../../src/jobs/enqueue-notify.js';

const finding = (over: Partial<Finding> = {}): Finding => ({
  id: 'webhook.unavailable-blocking',
  severity: 'critical',
  section: 'webhooks',
  title: 'Webhook policy refuses pods',
  subject: { kind: 'ValidatingWebhookConfiguration', name: 'policy' },
  evidence: [],
  remediations: [],
  confidence: 'high',
  fingerprint: 'fp',
  correlationKey: 'webhook ValidatingWebhookConfiguration/policy → policy/svc',
  ...over,
});
const req = (cluster: string, at: string, over: Partial<Finding> = {}): JoinRequest => ({
  channel: 'C0',
  cluster,
  finding: finding(over),
  fingerprint: `fp-${cluster}`,
  incidentKey: `fp-${cluster}.1`,
  at,
});
const WINDOW = 60_000;

describe('fleet incidents (pure)', () => {
  it('the same id and key on a second cluster within the window joins; the first is the anchor', () => {
    const a = joinFleetIncident(undefined, req('a', '2026-01-01T10:00:00Z'), WINDOW);
    expect(isFleet(a)).toBe(false);
    const ab = joinFleetIncident(a, req('b', '2026-01-01T10:00:40Z'), WINDOW);
    expect(isFleet(ab)).toBe(true);
    expect(ab.anchor.cluster).toBe('a');
    expect(ab.members.map((m) => m.cluster)).toEqual(['a', 'b']);
    expect(ab.key).toBe(
      fleetIncidentKey(
        'C0',
        'webhook.unavailable-blocking',
        'webhook ValidatingWebhookConfiguration/policy → policy/svc',
      ),
    );
  });

  it('outside the window a lone incident is not joined: the newcomer anchors a record of its own', () => {
    const a = joinFleetIncident(undefined, req('a', '2026-01-01T10:00:00Z'), WINDOW);
    const b = joinFleetIncident(a, req('b', '2026-01-01T10:01:01Z'), WINDOW);
    expect(b.anchor.cluster).toBe('b');
    expect(b.members.map((m) => m.cluster)).toEqual(['b']);
  });

  it('a fleet incident grows while any cluster still fails, and a recovered cluster stays listed, marked', () => {
    let f = joinFleetIncident(undefined, req('a', '2026-01-01T10:00:00Z'), WINDOW);
    f = joinFleetIncident(f, req('b', '2026-01-01T10:00:10Z'), WINDOW);
    f = markRecovered(f, 'a', '2026-01-01T10:05:00Z');
    f = joinFleetIncident(f, req('c', '2026-01-01T10:09:00Z'), WINDOW);
    expect(f.members.map((m) => `${m.cluster}${m.recoveredAt ? ' recovered' : ''}`)).toEqual(['a recovered', 'b', 'c']);
    f = markRecovered(markRecovered(f, 'b', '2026-01-01T10:10:00Z'), 'c', '2026-01-01T10:10:00Z');
    // Over: the next one starts afresh.
    expect(joinFleetIncident(f, req('d', '2026-01-01T10:10:30Z'), WINDOW).anchor.cluster).toBe('d');
  });

  it('first messages of new incidents go before follow-ups, each worst first; fleet member cards last', () => {
    const opened = { changes: [{ seq: 1, kinds: ['opened' as const], at: '', details: [] }] };
    const replied = { changes: [{ seq: 2, kinds: ['evidence' as const], at: '', details: [] }] };
    const order = [
      notifyPriority({ ...replied, severity: 'critical' }),
      notifyPriority({ ...opened, severity: 'warning' }),
      notifyPriority({ ...opened, severity: 'critical' }, true),
      notifyPriority({ ...opened, severity: 'critical' }),
    ];
    expect(order.sort((x, y) => x - y)).toEqual([1, 2, 10, 30]);
  });
});
