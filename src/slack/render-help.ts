import type { Config } from '../config/config-schema.js';
import { SECTION_IDS } from '../diagnose/finding.js';

/** The ephemeral `/k8s-health help` answer (plain mrkdwn text). */
export function renderHelp(config: Config): string {
  const names = config.clusters.map((c) => `\`${c.name}\``).join(', ') || '(none configured)';
  return [
    '*/k8s-health* — cluster health from the latest scan, refreshed in place when it is stale.',
    '• `/k8s-health` — the cluster of this channel',
    '• `/k8s-health CLUSTER` — one cluster',
    `• \`/k8s-health CLUSTER SECTION\` — one section: ${SECTION_IDS.join(', ')}`,
    'The answer is a card: one line per root cause with since when, why, a runbook link and its fix; *Details* shows the rest to you alone.',
    `Clusters: ${names}`,
  ].join('\n');
}
