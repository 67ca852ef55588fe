import type { RespondFn, webApi } from '@slack/bolt';
import { clampBlocks, type SlackMessage } from '../render/clamp-blocks.js';

/** A posted public answer that can be replaced in place later. */
export interface PostedAnswer {
  /** 'message' = chat.postMessage (updated with chat.update); 'response_url' = the fallback. */
  via: 'message' | 'response_url';
  channel?: string;
  ts?: string;
  update(message: SlackMessage): Promise<void>;
}

/** Errors that mean "the bot may not post here" (private channel it was not invited to, DMs). */
const NOT_POSTABLE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

/**
 * Post an answer publicly in the channel. chat.postMessage + chat.update is the robust way to edit in
 * place (no 30-minute / 5-use limit of a response_url); when the bot cannot post in the channel we
 * fall back to the command's response_url (in_channel, later replace_original).
 */
export async function postAnswer(
  client: webApi.WebClient,
  respond: RespondFn,
  channel: string,
  message: SlackMessage,
): Promise<PostedAnswer> {
  const first = clampBlocks(message);
  try {
    const res = await client.chat.postMessage({ channel, text: first.text, blocks: first.blocks, unfurl_links: false });
    const postedChannel = res.channel ?? channel;
    const ts = res.ts!;
    return {
      via: 'message',
      channel: postedChannel,
      ts,
      async update(next) {
        const m = clampBlocks(next);
        await client.chat.update({ channel: postedChannel, ts, text: m.text, blocks: m.blocks });
      },
    };
  } catch (err) {
    if (!NOT_POSTABLE.has(slackErrorCode(err))) throw err;
  }
  await respond({ response_type: 'in_channel', text: first.text, blocks: first.blocks });
  return {
    via: 'response_url',
    async update(next) {
      const m = clampBlocks(next);
      await respond({ response_type: 'in_channel', replace_original: true, text: m.text, blocks: m.blocks });
    },
  };
}

/** The Web API error code (`not_in_channel`, …) of a WebClient platform error, else "". */
export function slackErrorCode(err: unknown): string {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : '';
}
