import type { SlackMessage } from './clamp-blocks.js';
import { neutralizeMrkdwn, neutralizeMrkdwnWord } from '../../text/neutralize-mrkdwn.js';

/** One cluster of the list: its name, where it comes from, and its stored report's status. */
export interface ClusterListEntry {
  name: string;
  fleet?: string;
  /** `healthy`, `degraded`, `critical`, `unknown`; undefined when it was never scanned. */
  status?: string;
  /** Workload credentials (false: diagnosed from the management side only). */
  enrolled: boolean;
  /** ISO time of the stored report. */
  storedAt?: string;
}

const ORDER = ['critical', 'degraded', 'unknown', undefined, 'healthy'];
const ICON: Record<string, string> = {
  critical: ':red_circle:',
  degraded: ':large_orange_circle:',
  unknown: ':white_circle:',
  healthy: ':large_green_circle:',
};
/** Lines per section block: Slack's 3,000-character section text with room for long names. */
const LINES_PER_BLOCK = 25;

/**
 * `/k8s-health` with no argument in a fleet channel (docs/fleet.md): the clusters this channel may
 * query, worst first, from their stored reports. Names come from Cluster objects: neutralized.
 */
export function renderClusterList(entries: readonly ClusterListEntry[]): SlackMessage {
  // A status comes from a stored report, read back from Redis: one of ours is shown, anything else neutralized.
  const known = entries.map((e) => ({
    ...e,
    status: e.status === undefined ? undefined : neutralizeMrkdwnWord(e.status, Object.keys(ICON)),
  }));
  const sorted = known.sort(
    (a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || String(a.name).localeCompare(String(b.name)),
  );
  const counts = new Map<string, number>();
  for (const e of sorted)
    counts.set(e.status ?? 'not scanned yet', (counts.get(e.status ?? 'not scanned yet') ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  const lines = sorted.map((e) => {
    const where = [
      e.fleet ? `fleet ${neutralizeMrkdwn(e.fleet, { max: 60 })}` : 'configured',
      e.enrolled ? '' : 'management side only',
    ]
      .filter(Boolean)
      .join(' · ');
    return `${(e.status !== undefined && Object.hasOwn(ICON, e.status) ? ICON[e.status] : undefined) ?? ':hourglass:'} \`${neutralizeMrkdwn(e.name, { max: 120 })}\` — ${e.status ?? 'not scanned yet'} (${where})`;
  });
  const blocks: SlackMessage['blocks'] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*Clusters of this channel* — ${sorted.length}: ${summary}. Type \`/k8s-health CLUSTER\` for one.`,
      },
    },
  ];
  for (let i = 0; i < lines.length; i += LINES_PER_BLOCK)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.slice(i, i + LINES_PER_BLOCK).join('\n') } });
  return { text: `Clusters of this channel: ${sorted.length} (${summary})`, blocks };
}
