import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/diagnose/finding.js';
import type { Incident } from '../../src/alerts/incident.js';
import { incidentTimes } from '../../src/slack/render/incident-times.js';
import { renderAlertParent, renderAlertReply } from '../../src/slack/render/render-alert.js';

const finding: Finding = {
  id: 'webhook.service-unavailable',
  section: 'webhooks',
  severity: 'critical',
  title: 'Webhook kyverno is down and fails closed',
  subject: { kind: 'ValidatingWebhookConfiguration', name: 'kyverno' },
  evidence: ['service kyverno-svc has no ready endpoints'],
  missingEvidence: [],
  causedBy: [],
  remediations: [],
  fingerprint: 'fp1',
  since: '2026-11-25T09:02:00Z',
} as unknown as Finding;

function incident(over: Partial<Incident> = {}): Incident {
  return {
    cluster: 'prod-east',
    fingerprint: 'fp1',
    key: 'fp1.1',
    channel: 'C1',
    status: 'resolved',
    openedAt: '2026-11-25T10:00:00Z',
    lastSeenAt: '2026-11-25T10:00:51Z',
    resolvedAt: '2026-11-25T10:02:00Z',
    missedScans: 2,
    finding,
    severity: 'critical',
    evidenceSeen: [],
    related: [],
    seq: 2,
    changes: [
      {
        seq: 2,
        kinds: ['resolved'],
        at: '2026-11-25T10:02:00Z',
        details: [{ kind: 'resolved', missedScans: 2, lastSeenAt: '2026-11-25T10:00:51Z', lastedMs: 51_000 }],
      },
    ],
    ...over,
  };
}

describe('incidentTimes', () => {
  it('measures a problem from its own start when that is before the first scan that saw it', () => {
    expect(incidentTimes(incident())).toEqual({
      since: '2026-11-25T09:02:00Z',
      lastSeen: '2026-11-25T10:00:51Z',
      resolvedAt: '2026-11-25T10:02:00Z',
      lasted: '58m',
    });
  });
  it('falls back to the opening scan when the finding knows no start, or an unparsable one', () => {
    expect(incidentTimes(incident({ finding: { ...finding, since: undefined } as Finding })).since).toBe(
      '2026-11-25T10:00:00Z',
    );
    expect(incidentTimes(incident({ finding: { ...finding, since: 'yesterday' } as Finding })).lasted).toBe('51s');
  });
  it('gives the parent and the resolution reply the same duration and start', () => {
    const inc = incident();
    const lasted = incidentTimes(inc).lasted!;
    const parent = JSON.stringify(renderAlertParent(inc).blocks);
    const reply = JSON.stringify(renderAlertReply(inc, inc.changes[0]!).blocks);
    expect(parent).toContain(`lasted ${lasted} (since <!date^${Date.parse('2026-11-25T09:02:00Z') / 1000}^`);
    expect(reply).toContain(`lasted ${lasted}.`);
    expect(parent + reply).not.toContain('51s');
  });
});
