import type { types } from '@slack/bolt';
import type { SectionId } from '../../diagnose/finding.js';
import { SECTION_TITLES } from '../../diagnose/finding.js';
import { neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { CLUSTER_PICK_ACTION_ID } from '../action-ids.js';
import type { SlackMessage } from './clamp-blocks.js';

/** Options a static_select holds (Slack's limit); beyond, the picker loads them as the user types. */
export const STATIC_SELECT_MAX = 100;

/** The picker's block id: which section was asked for, if any (the selected option carries only the cluster). */
export function pickBlockId(section?: SectionId): string {
  return section ? `pick-cluster:${section}` : 'pick-cluster';
}

/** One option of the picker: the cluster name as its text and value (names are at most 63 characters). */
export function clusterOption(name: string): types.PlainTextOption {
  return {
    text: { type: 'plain_text', text: neutralizeSlackPlainText(name, { max: 75 }), emoji: false },
    value: name.slice(0, 150),
  };
}

/**
 * `/k8s-health` with no cluster name where this channel may query several (pure): a picker instead of
 * an error, shown to the one who typed it. Up to {@link STATIC_SELECT_MAX} clusters a static_select
 * lists them; beyond, an external_select asks the app for the names matching what is typed
 * (handle-pick-cluster.ts). Picking one answers as `/k8s-health CLUSTER [SECTION]` would.
 */
export function renderClusterPicker(names: readonly string[], section?: SectionId): SlackMessage {
  const what = section ? `the *${SECTION_TITLES[section]}* section of which cluster` : 'which cluster';
  const placeholder = {
    type: 'plain_text' as const,
    text: names.length > STATIC_SELECT_MAX ? 'Type to search clusters' : 'Pick a cluster',
  };
  const select: types.StaticSelect | types.ExternalSelect =
    names.length > STATIC_SELECT_MAX
      ? { type: 'external_select', action_id: CLUSTER_PICK_ACTION_ID, placeholder, min_query_length: 0 }
      : { type: 'static_select', action_id: CLUSTER_PICK_ACTION_ID, placeholder, options: names.map(clusterOption) };
  return {
    text: `This channel may query ${names.length} clusters: pick one, or type /k8s-health CLUSTER.`,
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `This channel may query ${names.length} clusters: ${what}? (or type \`/k8s-health CLUSTER\`)`,
        },
      },
      { type: 'actions', block_id: pickBlockId(section), elements: [select] },
    ],
  };
}
