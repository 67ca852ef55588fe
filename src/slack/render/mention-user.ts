import { neutralizeMrkdwn } from '../../text/neutralize-mrkdwn.js';

/** A Slack user id as Slack issues them (U… in a workspace, W… in an Enterprise Grid org). */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{2,20}$/;

/**
 * `<@U…>` for a user id, the only mention the bot writes itself. Ids come from verified payloads,
 * but they are read back from Redis (votes, proposer), which is not trusted: anything
 * that is not a user id is shown as neutralized text, never as a mention or a link.
 */
export function mentionUser(id: unknown): string {
  return typeof id === 'string' && SLACK_USER_ID.test(id) ? `<@${id}>` : neutralizeMrkdwn(id, { max: 30 });
}

/** A Slack channel id (public C…, private G…). */
export const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{2,20}$/;

/**
 * `<#C…>` for a channel id, the only channel link the bot writes. Channel lists come from the config,
 * but a discovered cluster's come from a Cluster annotation through the fleet directory in Redis
 * (docs/fleet.md): anything that is not a channel id is shown as neutralized text.
 */
export function mentionChannel(id: unknown): string {
  return typeof id === 'string' && SLACK_CHANNEL_ID.test(id) ? `<#${id}>` : neutralizeMrkdwn(id, { max: 30 });
}
