import { describe, expect, it } from '@jest/globals';
import { withDateTokens } from '../../src/slack/render/date-tokens.js';
import { withShortTimes } from '../../src/slack/render/with-short-times.js';
import { withoutRestatedSince } from '../../src/slack/render/without-restated-since.js';
import { renderAlertParent } from '../../src/slack/render/render-alert.js';
import type { Incident } from '../../src/alerts/incident.js';
import { webhookDownFinding } from '../support/webhook-down-finding.js';

describe('times in messages', () => {
  it('a plain_text header says an ISO time short, in UTC, with the year only when it is not the year of the last sighting', () => {
    expect(withShortTimes('paused since 2025-03-07T14:00:00Z', '2025-03-10T09:00:00Z')).toBe(
      'paused since 7 Mar 14:00 UTC',
    );
    expect(withShortTimes('paused since 2024-12-31T23:59:59.5Z', '2025-01-01T00:10:00Z')).toBe(
      'paused since 31 Dec 2024 23:59 UTC',
    );
    expect(withShortTimes('at 2025-03-07T15:00:00+01:00')).toBe('at 7 Mar 14:00 UTC');
  });

  it('mrkdwn gets a date token for every ISO time, an offset one included', () => {
    expect(withDateTokens('created 2025-03-07T14:00:00Z, deleted 2025-03-07T15:00:00+01:00:')).toBe(
      'created <!date^1741356000^{date_short_pretty} {time}|2025-03-07 14:00 UTC>, deleted <!date^1741356000^{date_short_pretty} {time}|2025-03-07 14:00 UTC>:',
    );
  });

  it('a "since <time>" that restates the start the message says anyway is left out; another time stays', () => {
    const since = '2025-03-07T14:00:30Z';
    expect(
      withoutRestatedSince('MachineDeployment md-0 is paused since 2025-03-07T14:00:00Z: rollout waits', since),
    ).toBe('MachineDeployment md-0 is paused: rollout waits');
    expect(withoutRestatedSince('Node n1 NotReady (since 2025-03-07T14:00:00Z)', since)).toBe('Node n1 NotReady');
    expect(withoutRestatedSince('paused since 2025-03-07T13:00:00Z', since)).toBe('paused since 2025-03-07T13:00:00Z');
    expect(withoutRestatedSince('paused since 2025-03-07T14:00:00Z', undefined)).toBe(
      'paused since 2025-03-07T14:00:00Z',
    );
  });

  it("the alert parent's header drops the restated since (said below as a date token) and says any other time short", () => {
    const inc = (title: string, since: string): Incident => ({
      cluster: 'prod-east',
      fingerprint: 'fp',
      key: 'fp.1',
      channel: 'C0ALERTS',
      status: 'open',
      openedAt: '2025-03-07T16:00:00Z',
      lastSeenAt: '2025-03-07T16:00:00Z',
      missedScans: 0,
      finding: { ...webhookDownFinding, title, since, remediations: [] },
      severity: 'critical',
      evidenceSeen: [],
      related: [],
      seq: 1,
      changes: [],
    });
    const header = (i: Incident) => (renderAlertParent(i).blocks[0] as { text: { text: string } }).text.text;
    const paused = inc('MachineDeployment clusters/md-0 is paused since 2025-03-07T14:00:00Z', '2025-03-07T14:00:00Z');
    expect(header(paused)).toBe('prod-east: MachineDeployment clusters/md-0 is paused');
    expect(JSON.stringify(renderAlertParent(paused).blocks)).toContain(
      'since <!date^1741356000^{date_short_pretty} {time}|2025-03-07 14:00 UTC>',
    );
    expect(header(inc('Webhook w refuses pods since 2025-03-07T12:00:00Z', '2025-03-07T14:00:00Z'))).toBe(
      'prod-east: Webhook w refuses pods since 7 Mar 12:00 UTC',
    );
  });
});
