import type { BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { renderBackup } from '../render/render-backup.js';
import type { SlackDeps } from '../slack-deps.js';
import type { ApprovalDeps } from './handle-approval-deps.js';

type ButtonArgs = Pick<SlackActionMiddlewareArgs<BlockButtonAction>, 'action' | 'ack' | 'respond' | 'body'>;

/**
 * "Show backup" under an execution result: the object stored before the change, to the clicker
 * alone, so the thread itself stays a few lines (render-backup.ts). The button's value is the request
 * id; the backup is shown only in the channel of that request, and only for a cluster this channel may query.
 */
export async function handleShowBackup(
  { action, ack, respond, body }: ButtonArgs,
  deps: SlackDeps & { approval?: ApprovalDeps },
): Promise<void> {
  await ack();
  const tell = (text: string) => respond({ response_type: 'ephemeral', replace_original: false, text });
  const channel = body.channel?.id ?? body.container?.channel_id ?? '';
  const req = action.value && deps.approval ? await deps.approval.approvals.get(action.value) : undefined;
  const cluster = req && deps.config.clusters.find((c) => c.name === req.cluster);
  const backup =
    req &&
    cluster &&
    req.thread.channel === channel &&
    (cluster.slack.channels.length === 0 || cluster.slack.channels.includes(channel))
      ? await deps.approval?.backups?.load(req.id)
      : undefined;
  if (!req || !backup) {
    await tell('No backup of this request can be shown here (unknown request, another channel, or none was stored).');
    return;
  }
  const m = renderBackup(backup, req.id);
  await respond({ response_type: 'ephemeral', replace_original: false, text: m.text, blocks: m.blocks });
}
