import type {
  AllMiddlewareArgs,
  BlockStaticSelectAction,
  BlockSuggestion,
  SlackActionMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
} from '@slack/bolt';
import { SECTION_IDS } from '../../diagnose/finding.js';
import { findClosest } from '../../text/find-closest.js';
import { queryableClusters } from '../receive/parse-command.js';
import { clusterOption, STATIC_SELECT_MAX } from '../render/render-cluster-picker.js';
import type { SlackDeps } from '../slack-deps.js';
import { handleHealthCommand } from './handle-health-command.js';

type PickArgs = Pick<SlackActionMiddlewareArgs<BlockStaticSelectAction>, 'action' | 'ack' | 'respond' | 'body'> &
  Pick<AllMiddlewareArgs, 'client'>;

/**
 * A cluster picked in the picker of `/k8s-health` without a name: answered exactly as
 * `/k8s-health CLUSTER [SECTION]` typed by the picker in that channel (the section rides in the
 * block id). The pick is checked like typed text: a cluster this channel may not query is refused.
 */
export async function handlePickCluster(
  { action, ack, respond, body, client }: PickArgs,
  deps: SlackDeps,
): Promise<void> {
  await ack();
  const name = action.selected_option?.value ?? '';
  const fromBlock = action.block_id?.startsWith('pick-cluster:') ? action.block_id.slice('pick-cluster:'.length) : '';
  const section = SECTION_IDS.find((s) => s === fromBlock);
  const text = `${name}${section ? ` ${section}` : ''}`;
  await handleHealthCommand(
    {
      command: {
        text,
        channel_id: body.channel?.id ?? body.container?.channel_id ?? '',
        user_id: body.user.id,
        trigger_id: body.trigger_id,
      } as PickCommand,
      // The picker was the ack of the command; what the command would ack (an error) goes to the picker's user.
      ack: (async (msg?: { text?: string }) => {
        if (msg?.text) await respond({ response_type: 'ephemeral', replace_original: false, text: msg.text });
      }) as PickCommandArgs['ack'],
      respond,
      client,
    },
    deps,
  );
}

type PickCommandArgs = Parameters<typeof handleHealthCommand>[0];
type PickCommand = PickCommandArgs['command'];

/**
 * The options of the picker's external_select (more than {@link STATIC_SELECT_MAX} clusters): the
 * clusters this channel may query whose names contain what was typed, else the closest ones; at
 * most 100, sorted by name.
 */
export async function handlePickClusterOptions(
  { ack, body }: Pick<SlackOptionsMiddlewareArgs<'block_suggestion'>, 'ack' | 'body'>,
  deps: SlackDeps,
): Promise<void> {
  const b = body as BlockSuggestion;
  const typed = String(b.value ?? '')
    .trim()
    .toLowerCase();
  const names = queryableClusters(deps.config.clusters, b.channel?.id ?? b.container?.channel_id ?? '')
    .map((c) => c.name)
    .sort();
  const matching = typed ? names.filter((n) => n.toLowerCase().includes(typed)) : names;
  const shown = (matching.length ? matching : findClosest(typed, names, 10)).slice(0, STATIC_SELECT_MAX);
  await ack({ options: shown.map(clusterOption) });
}
