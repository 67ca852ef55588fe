import type { ClusterConfig, Config } from '../../config/config-schema.js';
import { SECTION_IDS, type SectionId } from '../../diagnose/finding.js';
import { neutralizeMrkdwn } from '../../text/neutralize-mrkdwn.js';
import { mentionChannel } from '../render/mention-user.js';

/** What `/k8s-health <text>` asks for. Errors are one line that says what is allowed. */
export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'report'; cluster: ClusterConfig; section?: SectionId }
  /** Fleet mode, no argument and no single cluster for this channel: the clusters it may query (docs/fleet.md). */
  | { kind: 'list'; clusters: ClusterConfig[] }
  | { kind: 'error'; message: string };

const USAGE = 'Usage: `/k8s-health [CLUSTER [SECTION]]` or `/k8s-health help`';

/**
 * Parse the slash command text against the config and the channel it was typed in. Pure; never
 * throws on any input (whatever the user typed is quoted back, shortened and escaped). Cluster names
 * and channel ids are quoted the same way: a discovered cluster's come from the fleet directory in
 * Redis (docs/fleet.md), which is not trusted.
 */
export function parseCommand(text: string, ctx: { config: Config; channelId: string }): ParsedCommand {
  const words = (text ?? '').trim().split(/\s+/).filter(Boolean);
  const clusters = ctx.config.clusters;
  // A fleet may hold hundreds of clusters: name a few, count the rest (the message stays one short line).
  const names = (clusters.length > 20 ? `${clusters.slice(0, 20).map((c) => quote(c.name)).join(', ')} (+${clusters.length - 20} more)` : clusters.map((c) => quote(c.name)).join(', ')) || '(none configured)';
  if (words.length === 1 && words[0]!.toLowerCase() === 'help') return { kind: 'help' };
  if (words.length > 2) return { kind: 'error', message: `Too many arguments. ${USAGE}` };
  if (clusters.length === 0) return { kind: 'error', message: 'No cluster is configured: add one under `clusters:` in the config file.' };

  let cluster: ClusterConfig | undefined;
  if (words.length === 0) {
    // Default: the single cluster this channel may query, else the only configured cluster.
    const here = clusters.filter((c) => c.slack.channels.includes(ctx.channelId));
    cluster = here.length === 1 ? here[0] : clusters.length === 1 ? clusters[0] : undefined;
    if (!cluster && ctx.config.fleets.length) {
      const queryable = here.length > 1 ? here : clusters.filter((c) => isAllowed(c, ctx.channelId));
      if (queryable.length) return { kind: 'list', clusters: queryable };
    }
    if (!cluster) {
      const candidates = (here.length > 1 ? here : clusters.filter((c) => isAllowed(c, ctx.channelId))).map((c) => quote(c.name));
      return {
        kind: 'error',
        message: `Which cluster? Type \`/k8s-health CLUSTER\` with one of: ${candidates.join(', ') || names}.`,
      };
    }
  } else {
    const typed = words[0]!;
    const found = findCluster(clusters, typed.toLowerCase());
    if (Array.isArray(found)) {
      return { kind: 'error', message: `Several clusters are named "${quote(typed)}": type one of ${found.map((c) => quote(c.name)).join(', ')}.` };
    }
    cluster = found;
    if (!cluster) return { kind: 'error', message: `Unknown cluster "${quote(typed)}". Known clusters: ${names}. ${USAGE}` };
  }
  if (!isAllowed(cluster, ctx.channelId)) {
    const allowed = cluster.slack.channels.map((c) => mentionChannel(c)).join(', ');
    return { kind: 'error', message: `Cluster "${quote(cluster.name)}" cannot be queried from this channel; ask in ${allowed}.` };
  }
  if (words.length === 2) {
    const typed = words[1]!;
    const section = SECTION_IDS.find((s) => s === typed.toLowerCase());
    if (!section) return { kind: 'error', message: `Unknown section "${quote(typed)}". Sections: ${SECTION_IDS.join(', ')}.` };
    return { kind: 'report', cluster, section };
  }
  return { kind: 'report', cluster };
}

/**
 * The cluster a typed name means: its name exactly; else `namespace/name` of a discovered cluster
 * (the Cluster object's namespace and name, whatever the bot calls it); else a Cluster object's own
 * name when only one discovered cluster has it — several is ambiguous (the caller lists them).
 */
function findCluster(clusters: ClusterConfig[], typed: string): ClusterConfig | ClusterConfig[] | undefined {
  const exact = clusters.find((c) => c.name === typed);
  if (exact) return exact;
  const byNsName = clusters.find((c) => c.fleet && `${c.fleet.namespace}/${c.fleet.clusterName}` === typed);
  if (byNsName) return byNsName;
  const byObject = clusters.filter((c) => c.fleet?.clusterName === typed);
  return byObject.length > 1 ? byObject : byObject[0];
}

/** An empty `slack.channels` means any channel may query the cluster (config-schema.ts). */
function isAllowed(cluster: ClusterConfig, channelId: string): boolean {
  return cluster.slack.channels.length === 0 || cluster.slack.channels.includes(channelId);
}

/** Quote user input back safely: short, and inert in mrkdwn (text/neutralize-mrkdwn.ts). */
function quote(s: string): string {
  return neutralizeMrkdwn(s, { max: 60 });
}
