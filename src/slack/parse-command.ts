import type { ClusterConfig, Config } from '../config/config-schema.js';
import { SECTION_IDS, type SectionId } from '../diagnose/finding.js';
import { neutralizeMrkdwn } from '../text/neutralize-mrkdwn.js';

/** What `/k8s-health <text>` asks for. Errors are one line that says what is allowed. */
export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'report'; cluster: ClusterConfig; section?: SectionId }
  | { kind: 'error'; message: string };

const USAGE = 'Usage: `/k8s-health [CLUSTER [SECTION]]` or `/k8s-health help`';

/**
 * Parse the slash command text against the config and the channel it was typed in. Pure; never
 * throws on any input (whatever the user typed is quoted back, shortened and escaped).
 */
export function parseCommand(text: string, ctx: { config: Config; channelId: string }): ParsedCommand {
  const words = (text ?? '').trim().split(/\s+/).filter(Boolean);
  const clusters = ctx.config.clusters;
  const names = clusters.map((c) => c.name).join(', ') || '(none configured)';
  if (words.length === 1 && words[0]!.toLowerCase() === 'help') return { kind: 'help' };
  if (words.length > 2) return { kind: 'error', message: `Too many arguments. ${USAGE}` };
  if (clusters.length === 0) return { kind: 'error', message: 'No cluster is configured: add one under `clusters:` in the config file.' };

  let cluster: ClusterConfig | undefined;
  if (words.length === 0) {
    // Default: the single cluster this channel may query, else the only configured cluster.
    const here = clusters.filter((c) => c.slack.channels.includes(ctx.channelId));
    cluster = here.length === 1 ? here[0] : clusters.length === 1 ? clusters[0] : undefined;
    if (!cluster) {
      const candidates = (here.length > 1 ? here : clusters.filter((c) => isAllowed(c, ctx.channelId))).map((c) => c.name);
      return {
        kind: 'error',
        message: `Which cluster? Type \`/k8s-health CLUSTER\` with one of: ${candidates.join(', ') || names}.`,
      };
    }
  } else {
    const typed = words[0]!;
    cluster = clusters.find((c) => c.name === typed.toLowerCase());
    if (!cluster) return { kind: 'error', message: `Unknown cluster "${quote(typed)}". Known clusters: ${names}. ${USAGE}` };
  }
  if (!isAllowed(cluster, ctx.channelId)) {
    const allowed = cluster.slack.channels.map((c) => `<#${c}>`).join(', ');
    return { kind: 'error', message: `Cluster "${cluster.name}" cannot be queried from this channel; ask in ${allowed}.` };
  }
  if (words.length === 2) {
    const typed = words[1]!;
    const section = SECTION_IDS.find((s) => s === typed.toLowerCase());
    if (!section) return { kind: 'error', message: `Unknown section "${quote(typed)}". Sections: ${SECTION_IDS.join(', ')}.` };
    return { kind: 'report', cluster, section };
  }
  return { kind: 'report', cluster };
}

/** An empty `slack.channels` means any channel may query the cluster (config-schema.ts). */
function isAllowed(cluster: ClusterConfig, channelId: string): boolean {
  return cluster.slack.channels.length === 0 || cluster.slack.channels.includes(channelId);
}

/** Quote user input back safely: short, and inert in mrkdwn (text/neutralize-mrkdwn.ts). */
function quote(s: string): string {
  return neutralizeMrkdwn(s, { max: 60 });
}
