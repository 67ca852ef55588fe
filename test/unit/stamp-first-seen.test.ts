import { describe, expect, it } from '@jest/globals';
import type { ScanRecord } from '../../src/diagnose/history.js';
import { stampFirstSeen } from '../../src/scan/stamp-first-seen.js';
import { webhookDownFinding } from '../support/webhook-down-finding.js';

const scan = (at: string, fingerprints: string[]): ScanRecord => ({
  at,
  machines: [],
  rollouts: [],
  findings: fingerprints.map((fingerprint) => ({
    id: 'webhook.unavailable-blocking',
    fingerprint,
    severity: 'critical',
  })),
});
const NOW = new Date('2025-03-01T10:30:00Z');

describe('stampFirstSeen ("first seen" on the card)', () => {
  it('is the earliest scan of the unbroken run that saw the finding', () => {
    const history = {
      scans: [
        scan('2025-03-01T10:00:00Z', ['fp-webhook']),
        scan('2025-03-01T10:10:00Z', ['fp-webhook']),
        scan('2025-03-01T10:20:00Z', ['fp-webhook', 'other']),
      ],
    };
    expect(stampFirstSeen([webhookDownFinding], history, NOW)[0]!.firstSeen).toBe('2025-03-01T10:00:00Z');
  });

  it('starts again after a scan without it (it came back), and is this scan when no earlier scan saw it', () => {
    const history = {
      scans: [
        scan('2025-03-01T10:00:00Z', ['fp-webhook']),
        scan('2025-03-01T10:10:00Z', []),
        scan('2025-03-01T10:20:00Z', ['fp-webhook']),
      ],
    };
    expect(stampFirstSeen([webhookDownFinding], history, NOW)[0]!.firstSeen).toBe('2025-03-01T10:20:00Z');
    expect(stampFirstSeen([webhookDownFinding], { scans: [] }, NOW)[0]!.firstSeen).toBe('2025-03-01T10:30:00.000Z');
  });

  it('leaves the findings it was given unchanged, and sets nothing for an unknown analysis time', () => {
    const given = [{ ...webhookDownFinding }];
    const stamped = stampFirstSeen(given, { scans: [] }, new Date(Number.NaN));
    expect(stamped[0]!.firstSeen).toBeUndefined();
    expect(given[0]!.firstSeen).toBeUndefined();
  });
});
