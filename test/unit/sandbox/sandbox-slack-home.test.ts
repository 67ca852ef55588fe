import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createAppHomeOpenedBody,
  createBlockActionBody,
  signSlackBody,
} from '../../../src/sandbox/create-slack-request.js';
import { startSandboxSlack, type SandboxSlack } from '../../../src/sandbox/start-sandbox-slack.js';

/**
 * The sandbox's App Home: the simulated Slack keeps the Home view last published per user
 * (views.publish) and answers as Slack does; opening the tab is a signed `app_home_opened` event.
 */
describe('sandbox Slack: the App Home tab', () => {
  let slack: SandboxSlack;
  const call = async (method: string, body: unknown, token = slack.token) => {
    const res = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown> & { view?: Record<string, unknown> };
  };
  const home = (text: string) => ({ type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });

  beforeAll(async () => {
    slack = await startSandboxSlack();
  });
  afterAll(async () => {
    await slack.close();
  });

  it('stores the latest Home view per user and answers { ok, view } with its id, as Slack does', async () => {
    const before = slack.version;
    const first = await call('views.publish', { user_id: 'U0BEN', view: home('first') });
    expect(first.ok).toBe(true);
    expect(first.view).toMatchObject({
      type: 'home',
      team_id: 'T0SANDBOX',
      blocks: [{ type: 'section', text: { text: 'first' } }],
    });
    expect(slack.version).toBeGreaterThan(before);
    const second = await call('views.publish', { user_id: 'U0BEN', view: home('second') });
    // One Home per user: published again, it keeps its id and shows the new blocks.
    expect(second.view?.id).toBe(first.view?.id);
    expect(slack.homeFor('U0BEN')?.view.blocks).toEqual([
      expect.objectContaining({ text: { type: 'mrkdwn', text: 'second' }, block_id: expect.any(String) }),
    ]);
    expect(slack.homeFor('U0ANN')).toBeUndefined();
    expect(slack.unknownCalls).toEqual([]);
  });

  it('refuses an unknown user, a view that is not a Home view and a wrong token; reset forgets every Home', async () => {
    expect(await call('views.publish', { user_id: 'U0NOBODY', view: home('x') })).toEqual({
      ok: false,
      error: 'user_not_found',
    });
    expect(await call('views.publish', { user_id: 'U0ANN', view: { type: 'modal', blocks: [] } })).toEqual({
      ok: false,
      error: 'invalid_arguments',
    });
    expect(await call('views.publish', { user_id: 'U0ANN', view: home('x') }, 'xoxb-wrong')).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    slack.clear();
    expect(slack.homeFor('U0BEN')).toBeUndefined();
  });

  it('signs app_home_opened as an Events API JSON body, and a Home click with the view as its container', () => {
    const body = createAppHomeOpenedBody({ user: 'U0BEN' });
    const event = JSON.parse(body) as Record<string, unknown>;
    expect(event).toMatchObject({
      type: 'event_callback',
      team_id: 'T0SANDBOX',
      api_app_id: 'A0SANDBOX',
      event: { type: 'app_home_opened', user: 'U0BEN', tab: 'home' },
    });
    expect(event.event_id).not.toBe(
      (JSON.parse(createAppHomeOpenedBody({ user: 'U0BEN' })) as Record<string, unknown>).event_id,
    );
    const signed = signSlackBody('secret', body, 1_700_000_000);
    expect(signed.headers['content-type']).toBe('application/json');
    expect(signed.headers['x-slack-signature']).toBe(
      `v0=${createHmac('sha256', 'secret').update(`v0:1700000000:${body}`).digest('hex')}`,
    );
    expect(signSlackBody('secret', 'payload=%7B%7D').headers['content-type']).toBe('application/x-www-form-urlencoded');

    const click = createBlockActionBody({
      user: 'U0BEN',
      home: { id: 'V1', view: home('x') },
      action: { actionId: 'go', blockId: 'b1', text: 'Go' },
      triggerId: 't',
    });
    const payload = JSON.parse(decodeURIComponent(click.slice('payload='.length))) as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: 'block_actions',
      container: { type: 'view', view_id: 'V1' },
      view: { id: 'V1', type: 'home' },
      user: { id: 'U0BEN' },
    });
    expect(payload).not.toHaveProperty('response_url');
    expect(payload).not.toHaveProperty('channel');
  });
});
