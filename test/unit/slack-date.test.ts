import { describe, expect, it } from '@jest/globals';
import { durationBetween, slackDate } from '../../src/slack/render/slack-date.js';
import { withDateTokens } from '../../src/slack/render/date-tokens.js';

describe('slackDate', () => {
  it('renders a Slack date token with a UTC fallback', () => {
    expect(slackDate('2026-11-25T03:07:41Z')).toBe(
      '<!date^1795576061^{date_short_pretty} {time}|2026-11-25 03:07 UTC>',
    );
  });
  it('gives undefined for a missing or unparsable time, never "now"', () => {
    expect(slackDate(undefined)).toBeUndefined();
    expect(slackDate('')).toBeUndefined();
    expect(slackDate('not a time')).toBeUndefined();
  });
});

describe('durationBetween', () => {
  it('computes a duration from two times', () => {
    expect(durationBetween('2026-11-25T03:00:00Z', '2026-11-25T03:14:00Z')).toBe('14m');
    expect(durationBetween('2026-11-25T03:00:00Z', '2026-11-25T05:05:00Z')).toBe('2h5m');
  });
  it('reads clock skew as 0s and a missing end as undefined', () => {
    expect(durationBetween('2026-11-25T03:14:00Z', '2026-11-25T03:00:00Z')).toBe('0s');
    expect(durationBetween('2026-11-25T03:00:00Z', undefined)).toBeUndefined();
  });
});

describe('withDateTokens', () => {
  it('turns every ISO time of a neutralized line into a date token, and nothing else', () => {
    expect(withDateTokens('Ready=False since 2026-11-25T03:07:41Z (kubelet stopped posting)')).toBe(
      'Ready=False since <!date^1795576061^{date_short_pretty} {time}|2026-11-25 03:07 UTC> (kubelet stopped posting)',
    );
    expect(withDateTokens('leader changed at 2026-11-25T03:07:41.123Z and 2026-11-25T03:08Z')).toContain(
      '<!date^1795576080^',
    );
    expect(withDateTokens('version 2026-11-25 and 10:02')).toBe('version 2026-11-25 and 10:02');
  });
});
