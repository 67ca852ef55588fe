import type { WebClient } from '@slack/web-api';
import type { ChannelLimiter } from './create-channel-limiter.js';
import type { SlackMessage } from '../render/clamp-blocks.js';

/** What the alerts worker posts with: the notify client (429s come back) and the shared limiter. */
export interface PostPrometheusDeps {
  client: WebClient;
  limiter: ChannelLimiter;
}

/**
 * Post one message of a Prometheus alert: a reply in `threadTs`, or a new parent. Waits for the
 * channel's slot (the limiter every poster shares); a 429 pauses the channel and fails the call, so
 * the job is retried (its receipts make the retry post only what is missing).
 */
export async function postPrometheusMessage(
  deps: PostPrometheusDeps,
  channel: string,
  message: SlackMessage,
  threadTs?: string,
): Promise<{ channel: string; ts: string }> {
  await deps.limiter.wait(channel);
  try {
    const res = await deps.client.chat.postMessage({
      channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    return { channel: (res.channel as string | undefined) ?? channel, ts: res.ts as string };
  } catch (err) {
    await pauseOn429(deps, channel, err);
    throw err;
  }
}

/** Edit a message posted before (a resolved alert, the tally line). */
export async function updatePrometheusMessage(
  deps: PostPrometheusDeps,
  channel: string,
  ts: string,
  message: SlackMessage,
): Promise<void> {
  await deps.limiter.wait(channel);
  try {
    await deps.client.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
  } catch (err) {
    await pauseOn429(deps, channel, err);
    throw err;
  }
}

async function pauseOn429(deps: PostPrometheusDeps, channel: string, err: unknown): Promise<void> {
  const retryAfter = (err as { retryAfter?: number; code?: string }).retryAfter;
  if (typeof retryAfter === 'number') await deps.limiter.pause(channel, retryAfter * 1000);
}
