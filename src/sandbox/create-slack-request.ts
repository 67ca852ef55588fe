import { createHmac, randomBytes } from 'node:crypto';
import {
  SANDBOX_APP_ID,
  SANDBOX_BOT,
  SANDBOX_CHANNEL,
  SANDBOX_PEOPLE,
  SANDBOX_TEAM_ID,
  type SandboxPerson,
} from './sandbox-people.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';

/** A request as Slack would send it to the app's request URL: the raw body and its signature headers. */
export interface SlackRequest {
  body: string;
  headers: Record<string, string>;
}

const APP_ID = SANDBOX_APP_ID;

/**
 * Sign a body exactly as Slack does ("Verifying requests from Slack"): `v0=` + HMAC-SHA256 of
 * `v0:<timestamp>:<raw body>` with the signing secret. Bolt's receiver verifies it like any other.
 * Events API bodies are JSON, commands and interactions form fields (`token=…`, `payload=…`): the
 * content type follows the body, as Slack sends each.
 */
export function signSlackBody(secret: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): SlackRequest {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${nowSeconds}:${body}`).digest('hex')}`;
  const contentType = body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded';
  return {
    body,
    headers: {
      'content-type': contentType,
      'x-slack-signature': signature,
      'x-slack-request-timestamp': String(nowSeconds),
    },
  };
}

function person(id: string): SandboxPerson {
  const p = SANDBOX_PEOPLE.find((x) => x.id === id);
  if (!p) throw new K8sHealthError('E_SANDBOX_USER', `unknown sandbox user ${id}`);
  return p;
}

/** `/k8s-health <text>` typed by `user` in the incident channel: the form fields of a slash command. */
export function createCommandBody(o: { user: string; text: string; responseUrl: string; triggerId: string }): string {
  const p = person(o.user);
  return new URLSearchParams({
    token: 'sandbox-verification-token',
    team_id: SANDBOX_TEAM_ID,
    team_domain: 'sandbox',
    channel_id: SANDBOX_CHANNEL.id,
    channel_name: SANDBOX_CHANNEL.name,
    user_id: p.id,
    user_name: p.name,
    command: '/k8s-health',
    text: o.text,
    api_app_id: APP_ID,
    is_enterprise_install: 'false',
    response_url: o.responseUrl,
    trigger_id: o.triggerId,
  }).toString();
}

/**
 * What was clicked: a button, or a menu — a static select or an overflow menu (`menu`, default
 * static_select) — with its chosen option (`selected`).
 */
export interface ClickedElement {
  actionId: string;
  blockId: string;
  value?: string;
  text: string;
  style?: string;
  selected?: { value: string; text: string };
  menu?: 'static_select' | 'overflow';
}

/**
 * A click on a message (public or ephemeral) or on a user's Home view: a button, a static select or
 * an overflow menu's option, as a `block_actions` interaction payload (an overflow's action carries
 * `selected_option` as a select's does). A click in a Home view has no channel, message or
 * response_url (Slack sends none): its container is the view.
 */
export function createBlockActionBody(o: {
  user: string;
  message?: { ts: string; threadTs?: string; text: string; blocks: unknown[]; ephemeral: boolean };
  home?: { id: string; view: Record<string, unknown> };
  action: ClickedElement;
  responseUrl?: string;
  triggerId: string;
}): string {
  const p = person(o.user);
  const nowTs = `${(Date.now() / 1000).toFixed(6)}`;
  const where = o.message
    ? {
        container: {
          type: 'message',
          message_ts: o.message.ts,
          channel_id: SANDBOX_CHANNEL.id,
          is_ephemeral: o.message.ephemeral,
          ...(o.message.threadTs ? { thread_ts: o.message.threadTs } : {}),
        },
        channel: { id: SANDBOX_CHANNEL.id, name: SANDBOX_CHANNEL.name },
        // Slack leaves `message` out of clicks on ephemeral messages.
        ...(o.message.ephemeral
          ? {}
          : {
              message: {
                type: 'message',
                user: SANDBOX_BOT.id,
                ts: o.message.ts,
                text: o.message.text,
                blocks: o.message.blocks,
                ...(o.message.threadTs ? { thread_ts: o.message.threadTs } : {}),
              },
            }),
        ...(o.responseUrl ? { response_url: o.responseUrl } : {}),
      }
    : {
        container: { type: 'view', view_id: o.home?.id ?? '' },
        view: {
          ...o.home?.view,
          id: o.home?.id ?? '',
          team_id: SANDBOX_TEAM_ID,
          type: 'home',
          app_id: APP_ID,
          bot_id: SANDBOX_BOT.botId,
          state: { values: {} },
          hash: `${Date.now()}.sandbox`,
        },
      };
  const payload = {
    type: 'block_actions',
    ...interactionEnvelope(p),
    ...where,
    trigger_id: o.triggerId,
    state: { values: {} },
    actions: [
      o.action.selected
        ? {
            type: o.action.menu ?? 'static_select',
            action_id: o.action.actionId,
            block_id: o.action.blockId,
            selected_option: {
              text: { type: 'plain_text', text: o.action.selected.text, emoji: true },
              value: o.action.selected.value,
            },
            action_ts: nowTs,
          }
        : {
            type: 'button',
            action_id: o.action.actionId,
            block_id: o.action.blockId,
            text: { type: 'plain_text', text: o.action.text, emoji: true },
            ...(o.action.value !== undefined ? { value: o.action.value } : {}),
            ...(o.action.style ? { style: o.action.style } : {}),
            action_ts: nowTs,
          },
    ],
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * A modal submitted by `user`: a `view_submission` payload whose `state.values` hold what was typed
 * into its inputs, keyed by block id and action id as Slack keys them.
 */
export function createViewSubmissionBody(o: {
  user: string;
  viewId: string;
  view: Record<string, unknown>;
  values: Record<string, Record<string, string>>;
  triggerId: string;
}): string {
  const p = person(o.user);
  const values: Record<string, Record<string, { type: string; value: string }>> = {};
  for (const [blockId, byAction] of Object.entries(o.values)) {
    values[blockId] = Object.fromEntries(
      Object.entries(byAction).map(([actionId, value]) => [actionId, { type: 'plain_text_input', value }]),
    );
  }
  const payload = {
    type: 'view_submission',
    ...interactionEnvelope(p),
    trigger_id: o.triggerId,
    view: {
      ...o.view,
      id: o.viewId,
      team_id: SANDBOX_TEAM_ID,
      type: 'modal',
      state: { values },
      hash: `${Date.now()}.sandbox`,
    },
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * `user` opened the app's Home tab: an Events API `event_callback` carrying `app_home_opened`
 * (tab `home`), as Slack delivers it to the request URL (JSON). Every delivery has its own event_id.
 */
export function createAppHomeOpenedBody(o: { user: string; channel?: string }): string {
  const p = person(o.user);
  const now = Date.now() / 1000;
  return JSON.stringify({
    token: 'sandbox-verification-token',
    team_id: SANDBOX_TEAM_ID,
    api_app_id: APP_ID,
    event: {
      type: 'app_home_opened',
      user: p.id,
      channel: o.channel ?? `D0HOME${p.name.toUpperCase()}`,
      tab: 'home',
      event_ts: now.toFixed(6),
    },
    type: 'event_callback',
    event_id: `Ev${randomBytes(8).toString('hex').toUpperCase()}`,
    event_time: Math.floor(now),
    authorizations: [
      {
        enterprise_id: null,
        team_id: SANDBOX_TEAM_ID,
        user_id: SANDBOX_BOT.id,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
  });
}

/** What every interaction payload of the sandbox's workspace carries: team, user, app and the legacy token. */
function interactionEnvelope(p: { id: string; name: string }) {
  return {
    team: { id: SANDBOX_TEAM_ID, domain: 'sandbox' },
    user: { id: p.id, username: p.name, name: p.name, team_id: SANDBOX_TEAM_ID },
    api_app_id: APP_ID,
    token: 'sandbox-verification-token',
  };
}
