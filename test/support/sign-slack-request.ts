import { createHmac } from 'node:crypto';

/**
 * Headers of a correctly signed Slack request (Slack's "Verifying requests" scheme, as Bolt checks it):
 * `x-slack-signature: v0=HMAC-SHA256(secret, "v0:<ts>:<raw body>")`, `x-slack-request-timestamp: <ts>`.
 */
export function signSlackRequest(
  secret: string,
  rawBody: string,
  ts: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${rawBody}`).digest('hex')}`;
  return { 'x-slack-signature': signature, 'x-slack-request-timestamp': String(ts) };
}

/** A slash command body, form-encoded exactly as Slack sends it. */
export function slashCommandBody(fields: {
  text?: string;
  channel_id?: string;
  user_id?: string;
  response_url: string;
  command?: string;
}): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T0TEAM',
    team_domain: 'example',
    channel_id: fields.channel_id ?? 'C0INCIDENT',
    channel_name: 'incident',
    user_id: fields.user_id ?? 'U0ALICE',
    user_name: 'alice',
    command: fields.command ?? '/k8s-health',
    text: fields.text ?? '',
    api_app_id: 'A0APP',
    is_enterprise_install: 'false',
    response_url: fields.response_url,
    trigger_id: '1.2.3',
  }).toString();
}

/** A block_actions interaction body: `payload=<url-encoded JSON>`. */
export function blockActionBody(fields: {
  actionId: string;
  value: string;
  blockId?: string;
  channel_id?: string;
  user_id?: string;
  response_url: string;
  message_ts?: string;
  thread_ts?: string;
  select?: boolean;
  /** A choice of an overflow menu (its option's value is `value`). */
  overflow?: boolean;
}): string {
  const payload = {
    type: 'block_actions',
    team: { id: 'T0TEAM', domain: 'example' },
    user: { id: fields.user_id ?? 'U0BOB', username: 'bob', name: 'bob', team_id: 'T0TEAM' },
    api_app_id: 'A0APP',
    token: 'legacy-verification-token',
    container: {
      type: 'message',
      message_ts: fields.message_ts ?? '1700000000.000100',
      channel_id: fields.channel_id ?? 'C0INCIDENT',
      is_ephemeral: false,
    },
    trigger_id: '1.2.4',
    channel: { id: fields.channel_id ?? 'C0INCIDENT', name: 'incident' },
    message: {
      type: 'message',
      ts: fields.message_ts ?? '1700000000.000100',
      ...(fields.thread_ts ? { thread_ts: fields.thread_ts } : {}),
      text: 'report',
    },
    response_url: fields.response_url,
    actions: [
      fields.select || fields.overflow
        ? {
            type: fields.overflow ? 'overflow' : 'static_select',
            action_id: fields.actionId,
            block_id: fields.blockId ?? 'fix:abc',
            selected_option: { text: { type: 'plain_text', text: 'choice' }, value: fields.value },
            action_ts: '1700000001.000200',
          }
        : {
            type: 'button',
            action_id: fields.actionId,
            block_id: fields.blockId ?? 'fix:abc',
            value: fields.value,
            text: { type: 'plain_text', text: 'fix' },
            action_ts: '1700000001.000200',
          },
    ],
  };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
