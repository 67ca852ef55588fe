import type { KnownBlock } from '@slack/types';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import { fleetSeverity, isOngoing, type FleetIncident } from '../../alerts/fleet-incident.js';
import type { AlertChange, Incident } from '../../alerts/incident.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { renderAlertParent, renderAlertReply } from './render-alert.js';
import { SEVERITY_EMOJI } from './render-blocks.js';
import { slackDate } from './slack-date.js';

/** How many clusters the parent names one per line (the rest: counted, and each has its reply). */
const CLUSTERS_SHOWN = 40;

/**
 * The parent of a fleet thread (pure): one fault on several clusters. What it is (finding id and its
 * cluster-independent key), how many clusters, then one line per cluster — failing with its own
 * title and since when, or marked recovered in place — worst first in order of joining. Each
 * cluster's own card (its evidence and its fix, approved by that cluster's approvers) is a reply.
 * Edited as clusters join and recover, so it holds no relative age.
 */
export function renderFleetParent(fleet: FleetIncident, anchor: Incident): SlackMessage {
  const failing = fleet.members.filter((m) => !m.recoveredAt);
  const done = !isOngoing(fleet);
  const severity = fleetSeverity(fleet);
  const head = `${done ? ':white_check_mark: Resolved · ' : ''}Fleet incident: ${anchor.finding.id} on ${fleet.members.length} clusters`;
  const date = (iso: string | undefined) => slackDate(iso) ?? 'an unknown time';
  const lines: string[] = [
    done
      ? `:white_check_mark: *Every cluster recovered* (${fleet.members.length})`
      : `${SEVERITY_EMOJI[severity] ?? ''} *${severity}* · ${failing.length} of ${fleet.members.length} clusters failing · since ${date(fleet.members[0]?.joinedAt)}`,
    `*Same fault:* \`${md(fleet.correlationKey, { max: 300 })}\``,
    '*Clusters:*',
  ];
  for (const m of fleet.members.slice(0, CLUSTERS_SHOWN)) {
    lines.push(
      m.recoveredAt
        ? `• :white_check_mark: ~${md(m.cluster, { max: 80 })}~ recovered ${date(m.recoveredAt)}`
        : `• ${SEVERITY_EMOJI[m.severity] ?? ''} *${md(m.cluster, { max: 80 })}* — ${mrkdwnSentence(m.title, 160)} · since ${date(m.joinedAt)}`,
    );
  }
  if (fleet.members.length > CLUSTERS_SHOWN)
    lines.push(`• _+${fleet.members.length - CLUSTERS_SHOWN} more clusters, each with its reply below_`);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: neutralizeSlackPlainText(head, { max: 150 }), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `Fleet thread · each cluster's card and fix are replies below · \`${md(anchor.finding.id, { max: 80 })}\` · fleet incident \`${neutralizeMrkdwnId(fleet.key)}\``,
        },
      ],
    },
  ];
  const names = failing.map((m) => m.cluster).join(', ');
  return clampBlocks({
    text: md(
      done
        ? `Resolved: fleet incident ${anchor.finding.id} on ${fleet.members.length} clusters`
        : `${severity.toUpperCase()} fleet incident ${anchor.finding.id} on ${failing.length} clusters: ${names}`,
      { max: 2900 },
    ),
    blocks,
  });
}

/** A cluster's card as a reply in the fleet thread: who joined, with its own buttons (its fix, on it, snooze). */
export function renderFleetMemberCard(inc: Incident, proposalIds: Record<string, string>): SlackMessage {
  const card = renderAlertParent(inc, { proposalIds });
  return clampBlocks({
    text: `${md(inc.cluster, { max: 80 })} joined the fleet incident: ${card.text}`,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `:heavy_plus_sign: *${md(inc.cluster, { max: 80 })}* has the same fault` },
      },
      ...card.blocks,
    ],
  });
}

/** A later change of one cluster in a fleet thread: the usual reply, naming the cluster first. */
export function renderFleetMemberReply(
  inc: Incident,
  change: AlertChange,
  opts: Parameters<typeof renderAlertReply>[2] = {},
): SlackMessage {
  const reply = renderAlertReply(inc, change, opts);
  return {
    text: reply.text,
    blocks: [
      { type: 'context', elements: [{ type: 'mrkdwn', text: `*${md(inc.cluster, { max: 80 })}*` }] },
      ...reply.blocks,
    ],
  };
}
