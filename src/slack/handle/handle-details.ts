import type { BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { describeError } from '../../errors/describe-error.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';
import { createRequestLogger } from '../receive/create-request-logger.js';
import { parseCommand } from '../receive/parse-command.js';
import { renderDetails } from '../render/render-details.js';
import type { SlackDeps } from '../slack-deps.js';

type ButtonArgs = Pick<SlackActionMiddlewareArgs<BlockButtonAction>, 'action' | 'ack' | 'respond' | 'body'>;

/**
 * The answer card's Details button: the symptoms, evidence and sections of the latest
 * stored report, ephemeral to the clicker (the channel keeps only the card). The value is what was
 * asked ("CLUSTER [SECTION]") and is checked again like a typed command: a cluster this channel may
 * not query, or a value made up, is refused with one line. No scan is started: Details is the report
 * the card was made from, or a newer one, with its own scan time.
 */
export async function handleDetails({ action, ack, respond, body }: ButtonArgs, deps: SlackDeps): Promise<void> {
  await ack();
  const channel = body.channel?.id ?? body.container?.channel_id ?? '';
  const log = createRequestLogger(deps.log, { triggerId: body.trigger_id, user: body.user?.id, channel });
  const tell = (message: { text: string; blocks?: unknown[] }) =>
    respond({ response_type: 'ephemeral', replace_original: false, ...message } as Parameters<typeof respond>[0]);
  try {
    const value = action.value?.trim() ?? '';
    const parsed = value ? parseCommand(value, { config: deps.config, channelId: channel }) : undefined;
    if (parsed?.kind !== 'report') {
      log.info({ reason: 'bad-details-value' }, 'details refused');
      await tell({
        text:
          parsed?.kind === 'error'
            ? parsed.message
            : 'These details are not for a cluster of this channel: run `/k8s-health` again.',
      });
      return;
    }
    const stored = await deps.reports.latest(parsed.cluster.name);
    if (!stored) {
      await tell({
        text: `No stored report for ${md(parsed.cluster.name, { max: 100 })} yet: run \`/k8s-health\` again in a moment.`,
      });
      return;
    }
    const m = renderDetails(stored.report, {
      section: parsed.section,
      runbookBaseUrl: deps.config.slack.runbookBaseUrl,
    });
    await tell(m);
    log.info({ cluster: parsed.cluster.name, section: parsed.section ?? null }, 'details shown');
  } catch (err) {
    deps.metrics.errors.inc({ where: 'action' });
    const reason = describeError(err);
    log.error({ err }, 'details failed');
    await tell({ text: `Details could not be shown: ${md(reason, { max: 500 })}` }).catch(() => undefined);
  }
}
