import type { WebClient } from '@slack/web-api';
import type { ChannelLimiter } from './create-channel-limiter.js';

/**
 * Post a one-line notice the bot composed itself (an unscanned cluster, say) to a channel. Links are
 * not unfurled: the text names clusters, and a preview would only push the line off a phone screen.
 * With a limiter, the post waits for the channel's send slot shared by every poster of the bot.
 */
export async function postNotice(
  client: Pick<WebClient, 'chat'>,
  channel: string,
  text: string,
  limiter?: Pick<ChannelLimiter, 'wait'>,
): Promise<void> {
  await limiter?.wait(channel);
  await client.chat.postMessage({ channel, text, unfurl_links: false, unfurl_media: false });
}
