import type { Config } from '../../config/config-schema.js';
import { SECTION_IDS } from '../../diagnose/finding.js';
import { neutralizeMrkdwn } from '../../text/neutralize-mrkdwn.js';

/** The ephemeral `/k8s-health help` answer (plain mrkdwn text). */
export function renderHelp(config: Config): string {
  const shown = config.clusters
    .slice(0, 30)
    .map((c) => `\`${neutralizeMrkdwn(c.name, { max: 120 })}\``)
    .join(', ');
  const names =
    (config.clusters.length > 30 ? `${shown} (+${config.clusters.length - 30} more)` : shown) || '(none configured)';
  return [
    '*/k8s-health* — cluster health from the latest scan, refreshed in place when it is stale.',
    config.fleets.length
      ? "• `/k8s-health` — the cluster of this channel, or the list of this channel's clusters by state"
      : '• `/k8s-health` — the cluster of this channel',
    config.fleets.length
      ? '• `/k8s-health CLUSTER` — one cluster (`namespace/name` when two clusters share a name)'
      : '• `/k8s-health CLUSTER` — one cluster',
    `• \`/k8s-health CLUSTER SECTION\` — one section: ${SECTION_IDS.join(', ')}`,
    'The answer is a card: one line per root cause with since when, why, a runbook link and its fix; *Details* shows the rest to you alone.',
    `Clusters: ${names}`,
  ].join('\n');
}
