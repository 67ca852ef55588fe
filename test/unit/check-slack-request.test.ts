import { describe, expect, it } from '@jest/globals';
import { checkSlackRequest } from '../../src/slack/receive/check-slack-request.js';

const NOW = 1_700_000_000;
const click = (extra: Record<string, unknown> = {}) => ({
  type: 'block_actions',
  team: { id: 'T0TEAM' },
  user: { id: 'U0ANN', team_id: 'T0TEAM' },
  actions: [],
  ...extra,
});
const command = (extra: Record<string, unknown> = {}) => ({
  command: '/k8s-health',
  team_id: 'T0TEAM',
  user_id: 'U0ANN',
  text: '',
  ...extra,
});

describe('checkSlackRequest (the pure rules behind the HTTP receiver and the Socket Mode middleware)', () => {
  it('lets a well-formed click, command or event through, with or without a policy', () => {
    for (const policy of [{}, { teamId: 'T0TEAM' }]) {
      expect(checkSlackRequest(click(), policy, { nowSeconds: NOW })).toBeUndefined();
      expect(checkSlackRequest(command(), policy, { nowSeconds: NOW, timestamp: String(NOW) })).toBeUndefined();
      expect(
        checkSlackRequest({ type: 'event_callback', team_id: 'T0TEAM', event: { type: 'app_mention' } }, policy, {
          nowSeconds: NOW,
        }),
      ).toBeUndefined();
    }
  });

  it('refuses a timestamp past the future skew (HTTP), and has no timestamp rule in Socket Mode', () => {
    expect(checkSlackRequest(click(), {}, { nowSeconds: NOW, timestamp: String(NOW + 300) })).toBeUndefined();
    expect(checkSlackRequest(click(), {}, { nowSeconds: NOW, timestamp: String(NOW + 301) })).toMatchObject({
      status: 401,
      reason: 'future-timestamp',
    });
    expect(checkSlackRequest(click(), {}, { nowSeconds: NOW, timestamp: 'soon' })).toMatchObject({ status: 401 });
    expect(checkSlackRequest(click(), {}, { nowSeconds: NOW })).toBeUndefined();
  });

  it('refuses payloads without a well-formed user, and unknown payloads, with 400', () => {
    for (const body of [
      click({ user: undefined }),
      click({ user: { id: '' } }),
      click({ user: { id: 'C0CHANNEL' } }),
      command({ user_id: undefined }),
      command({ user_id: 'U0A B' }),
      { type: 'nope' },
      null,
      [],
      'payload',
    ]) {
      expect(checkSlackRequest(body, {}, { nowSeconds: NOW })?.status).toBe(400);
    }
  });

  it('with slack.teamId: the payload team must be named and ours, the user team ours when given', () => {
    const policy = { teamId: 'T0TEAM' };
    expect(checkSlackRequest(click({ team: { id: 'T0EVIL' } }), policy, { nowSeconds: NOW })).toMatchObject({
      status: 403,
      reason: 'other-team',
    });
    expect(checkSlackRequest(click({ team: null }), policy, { nowSeconds: NOW })).toMatchObject({ status: 403 });
    expect(
      checkSlackRequest(click({ user: { id: 'U0ANN', team_id: 'T0EVIL' } }), policy, { nowSeconds: NOW }),
    ).toMatchObject({ status: 403 });
    expect(checkSlackRequest(click({ user: { id: 'U0ANN' } }), policy, { nowSeconds: NOW })).toBeUndefined();
    expect(checkSlackRequest(command({ team_id: 'T0EVIL' }), policy, { nowSeconds: NOW })).toMatchObject({
      status: 403,
    });
  });

  it('with slack.enterpriseId: the org must be named and ours', () => {
    const policy = { enterpriseId: 'E0ORG' };
    expect(checkSlackRequest(click({ enterprise: { id: 'E0ORG' } }), policy, { nowSeconds: NOW })).toBeUndefined();
    expect(
      checkSlackRequest(click({ team: { id: 'T0ANY', enterprise_id: 'E0ORG' } }), policy, { nowSeconds: NOW }),
    ).toBeUndefined();
    expect(checkSlackRequest(command({ enterprise_id: 'E0ORG' }), policy, { nowSeconds: NOW })).toBeUndefined();
    expect(checkSlackRequest(click(), policy, { nowSeconds: NOW })).toMatchObject({
      status: 403,
      reason: 'other-enterprise',
    });
    expect(checkSlackRequest(command({ enterprise_id: '' }), policy, { nowSeconds: NOW })).toMatchObject({
      status: 403,
    });
    expect(
      checkSlackRequest(
        click({ enterprise: { id: 'E0ORG' }, team: { id: 'T0ANY', enterprise_id: 'E0EVIL' } }),
        policy,
        { nowSeconds: NOW },
      ),
    ).toMatchObject({ status: 403 });
  });
});
