import type { ClusterConfig, Config } from '../../config/config-schema.js';
import { SECTION_IDS, type SectionId } from '../../diagnose/finding.js';
import { neutralizeMrkdwn } from '../../text/neutralize-mrkdwn.js';
import { mentionChannel } from '../render/mention-user.js';
import { findClosest } from '../../text/find-closest.js';

/** What `/k8s-health <text>` asks for. Errors are one line that says what is allowed. */
export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'report'; cluster: ClusterConfig; section?: SectionId }
  /** Fleet mode, no argument and no single cluster for this channel: the clusters it may query (docs/fleet.md). */
  | { kind: 'list'; clusters: ClusterConfig[] }
  /** No argument (or a section alone) and several clusters this channel may query: a picker, not an error. */
  | { kind: 'pick'; clusters: ClusterConfig[]; section?: SectionId }
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
  const names =
    (clusters.length > 20
      ? `${clusters
          .slice(0, 20)
          .map((c) => quote(c.name))
          .join(', ')} (+${clusters.length - 20} more)`
      : clusters.map((c) => quote(c.name)).join(', ')) || '(none configured)';
  if (words.length === 1 && words[0]!.toLowerCase() === 'help') return { kind: 'help' };
  if (words.length > 2) return { kind: 'error', message: `Too many arguments. ${USAGE}` };
  if (clusters.length === 0)
    return { kind: 'error', message: 'No cluster is configured: add one under `clusters:` in the config file.' };

  let cluster: ClusterConfig | undefined;
  let section: SectionId | undefined;
  const here = clusters.filter((c) => c.slack.channels.includes(ctx.channelId));
  const queryable = queryableClusters(clusters, ctx.channelId);
  // Default: the single cluster this channel is for, else the single one it may query, else the only one.
  const fallback =
    here.length === 1
      ? here[0]
      : queryable.length === 1
        ? queryable[0]
        : clusters.length === 1
          ? clusters[0]
          : undefined;
  const typed = words[0];
  const found = typed === undefined ? undefined : findCluster(clusters, typed.toLowerCase());
  const sectionAlone =
    typed !== undefined && words.length === 1 && !found
      ? SECTION_IDS.find((id) => id === typed.toLowerCase())
      : undefined;
  if (typed === undefined || sectionAlone) {
    // A section name alone answers for the channel's cluster.
    section = sectionAlone;
    cluster = fallback;
    if (!cluster && !section && ctx.config.fleets.length && queryable.length)
      return { kind: 'list', clusters: queryable };
    if (!cluster && queryable.length) return { kind: 'pick', clusters: queryable, ...(section ? { section } : {}) };
    if (!cluster)
      return { kind: 'error', message: `Which cluster? Type \`/k8s-health CLUSTER\` with one of: ${names}.` };
  } else {
    if (Array.isArray(found)) {
      return {
        kind: 'error',
        message: `Several clusters are named "${quote(typed)}": type one of ${found.map((c) => quote(c.name)).join(', ')}.`,
      };
    }
    cluster = found;
    if (!cluster) {
      // The closest names it may have meant: clusters this channel may query, and sections.
      const near = findClosest(
        typed,
        queryable.map((c) => c.name),
      );
      const nearSections = findClosest(typed, SECTION_IDS, 2);
      const meant = [
        ...near.map((n) => `cluster \`${quote(n)}\``),
        ...nearSections.map((n) => `section \`${n}\`${fallback ? ` (of ${quote(fallback.name)})` : ''}`),
      ];
      const hint = meant.length ? ` Did you mean ${meant.join(' or ')}?` : '';
      return { kind: 'error', message: `Unknown cluster "${quote(typed)}".${hint} Known clusters: ${names}. ${USAGE}` };
    }
  }
  if (!isAllowed(cluster, ctx.channelId)) {
    const allowed = cluster.slack.channels.map((c) => mentionChannel(c)).join(', ');
    return {
      kind: 'error',
      message: `Cluster "${quote(cluster.name)}" cannot be queried from this channel; ask in ${allowed}.`,
    };
  }
  if (words.length === 2) {
    const typedSection = words[1]!;
    section = SECTION_IDS.find((id) => id === typedSection.toLowerCase());
    if (!section) {
      const near = findClosest(typedSection, SECTION_IDS, 2);
      return {
        kind: 'error',
        message: `Unknown section "${quote(typedSection)}".${near.length ? ` Did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : ''} Sections: ${SECTION_IDS.join(', ')}.`,
      };
    }
  }
  return section ? { kind: 'report', cluster, section } : { kind: 'report', cluster };
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

/** The clusters `/k8s-health` may answer for in this channel: those meant for it, else every one it may query. */
export function queryableClusters(clusters: readonly ClusterConfig[], channelId: string): ClusterConfig[] {
  const here = clusters.filter((c) => c.slack.channels.includes(channelId));
  return here.length > 1 ? here : clusters.filter((c) => isAllowed(c, channelId));
}

/** An empty `slack.channels` means any channel may query the cluster (config-schema.ts). */
function isAllowed(cluster: ClusterConfig, channelId: string): boolean {
  return cluster.slack.channels.length === 0 || cluster.slack.channels.includes(channelId);
}

/** Quote user input back safely: short, and inert in mrkdwn (text/neutralize-mrkdwn.ts). */
function quote(s: string): string {
  return neutralizeMrkdwn(s, { max: 60 });
}
