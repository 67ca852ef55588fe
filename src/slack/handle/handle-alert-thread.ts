import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  BlockButtonAction,
  BlockStaticSelectAction,
  SlackActionMiddlewareArgs,
  types,
} from '@slack/bolt';
import { describeError } from '../../errors/describe-error.js';
import type { AlertStateStore } from '../../alerts/alert-state-store.js';
import type { AuditLog } from '../../store/audit-log.js';
import { buildTimeline, type TimelineSources } from '../../timeline/build-timeline.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';
import {
  ALERT_OWN_ACTION_ID,
  ALERT_SNOOZE_ACTION_ID,
  ALERT_TIMELINE_ACTION_ID,
  ALERT_UNSNOOZE_ACTION_ID,
} from '../action-ids.js';
import { createRequestLogger } from '../receive/create-request-logger.js';
import { mentionUser } from '../render/mention-user.js';
import { refreshAlertParent, type PostAlertDeps } from '../post/post-alert.js';
import { slackDate } from '../render/slack-date.js';
import type { SlackDeps } from '../slack-deps.js';

/** What the alert thread buttons need besides SlackDeps (built by the composition root or a test). */
export interface AlertThreadDeps {
  /** The notify side's stores and limiter; the Slack client is the one Bolt hands each listener. */
  post: Omit<PostAlertDeps, 'client' | 'log'>;
  /** The alert state, to find the incident a click is about. */
  states: Pick<AlertStateStore, 'load'>;
  audit: AuditLog;
  timeline: TimelineSources;
}

type Args = Pick<SlackActionMiddlewareArgs<BlockAction>, 'ack' | 'respond' | 'body'> &
  Pick<AllMiddlewareArgs, 'client'> & {
    action: BlockButtonAction['actions'][number] | BlockStaticSelectAction['actions'][number];
  };

/** Hours of each snooze choice (render-alert.ts SNOOZE_CHOICES); `resolved` has none. */
const SNOOZE_HOURS: Record<string, number | undefined> = { '1h': 1, '4h': 4, resolved: undefined };

/** Characters of Markdown per preformatted block of an exported timeline, and blocks per reply. */
const TIMELINE_CHUNK = 2900;
const TIMELINE_BLOCKS = 40;

/** Register the alert thread buttons: I'm on it, Snooze (select), Unsnooze, Export timeline. */
export function registerAlertThreadListeners(app: App, deps: SlackDeps & { alertThreads: AlertThreadDeps }): void {
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: ALERT_OWN_ACTION_ID }, (args) =>
    handleAlertThread(args, deps),
  );
  app.action<BlockStaticSelectAction>({ type: 'block_actions', action_id: ALERT_SNOOZE_ACTION_ID }, (args) =>
    handleAlertThread(args, deps),
  );
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: ALERT_UNSNOOZE_ACTION_ID }, (args) =>
    handleAlertThread(args, deps),
  );
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: ALERT_TIMELINE_ACTION_ID }, (args) =>
    handleAlertThread(args, deps),
  );
}

/**
 * One click on an alert thread's own buttons. Numbered flow:
 * 1. ack; the value names the incident (cluster + root-cause fingerprint); a cluster not configured,
 *    a click outside its alert channel, or an incident no longer known → one ephemeral line;
 * 2. I'm on it: the owner is recorded (alerts/alert-quiet-store.ts), audited (`owned`), and the parent
 *    is edited to show it;
 * 3. Snooze 1 h / 4 h / until resolved: stored per cluster and fingerprint, audited (`snoozed`), said
 *    in the thread, parent edited (it shows the snooze and an Unsnooze button); the notify workers post
 *    no replies meanwhile; Unsnooze reverses it (audited `unsnoozed`);
 * 4. Export timeline: the cluster's Markdown timeline (timeline/build-timeline.ts, the same as
 *    `k8s-health timeline`) as a reply in the thread, in preformatted rich-text blocks (literal text:
 *    nothing in it is parsed as mrkdwn or mentions).
 */
export async function handleAlertThread(
  { ack, respond, body, client, action }: Args,
  deps: SlackDeps & { alertThreads: AlertThreadDeps },
): Promise<void> {
  await ack();
  const user = body.user?.id ?? '';
  const channel = body.channel?.id ?? body.container?.channel_id ?? '';
  const log = createRequestLogger(deps.log, { triggerId: body.trigger_id, user, channel });
  const say = (text: string) =>
    respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => undefined);
  try {
    const raw =
      action.type === 'static_select'
        ? action.selected_option.value
        : action.type === 'button'
          ? (action.value ?? '')
          : '';
    const choice = action.type === 'static_select' ? raw.slice(0, raw.indexOf('|')) : undefined;
    const target = parseTarget(action.type === 'static_select' ? raw.slice(raw.indexOf('|') + 1) : raw);
    const cluster = target && deps.config.clusters.find((c) => c.name === target.c);
    if (!user || !target || !cluster || !cluster.slack.alertChannel || cluster.slack.alertChannel !== channel) {
      log.info({ reason: 'not-an-alert-thread' }, 'alert thread click refused');
      await say(
        'This button belongs to an alert thread of a cluster the bot does not know here (an old message, or another channel).',
      );
      return;
    }
    const { state } = await deps.alertThreads.states.load(cluster.name);
    const inc = state.incidents[target.f];
    const threadTs = String(body.container?.message_ts ?? body.message?.ts ?? '');
    const now = deps.now();
    if (action.action_id === ALERT_TIMELINE_ACTION_ID) {
      const markdown = await buildTimeline(deps.alertThreads.timeline, cluster.name, { now });
      // A Markdown file in the thread (files.uploadV2, scope files:write) with a short summary; an app
      // installed without that scope gets the text inline instead, and the reply says how to fix it.
      try {
        await client.filesUploadV2({
          channel_id: channel,
          thread_ts: threadTs,
          filename: timelineFilename(cluster.name, now),
          title: `Incident timeline of ${cluster.name}`,
          content: markdown,
          initial_comment: timelineSummary(cluster.name, markdown, user),
        });
        log.info({ cluster: cluster.name, chars: markdown.length, as: 'file' }, 'timeline exported');
      } catch (err) {
        log.warn({ cluster: cluster.name, err }, 'timeline not uploaded as a file; posted inline');
        const inline = timelineMessage(cluster.name, markdown, user);
        inline.blocks.push({
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: 'Not attached as a file: the Slack app needs the `files:write` scope (reinstall it from manifest.yaml).',
              verbatim: true,
            },
          ],
        });
        await client.chat.postMessage({ channel, thread_ts: threadTs, unfurl_links: false, ...inline });
      }
      return;
    }
    if (!inc || inc.status !== 'open') {
      await say('This incident is resolved (or no longer tracked): nothing to own or snooze.');
      return;
    }
    const quiet = deps.alertThreads.post.quiet;
    const audit = (event: 'owned' | 'snoozed' | 'unsnoozed', detail?: string) =>
      deps.alertThreads.audit.append({
        at: now.toISOString(),
        cluster: cluster.name,
        requestId: inc.key,
        event,
        action: action.action_id.replace('k8s-health.', ''),
        user,
        ...(detail ? { detail } : {}),
      });
    if (action.action_id === ALERT_OWN_ACTION_ID) {
      await quiet.setOwner(cluster.name, inc.key, { user, at: now.toISOString() });
      await audit('owned');
    } else if (action.action_id === ALERT_SNOOZE_ACTION_ID) {
      if (!choice || !(choice in SNOOZE_HOURS)) {
        await say('Unknown snooze choice: pick 1 hour, 4 hours or until resolved.');
        return;
      }
      const hours = SNOOZE_HOURS[choice];
      const until = hours === undefined ? undefined : new Date(now.getTime() + hours * 3_600_000).toISOString();
      await quiet.snooze(cluster.name, inc.fingerprint, {
        by: user,
        at: now.toISOString(),
        ...(until ? { until } : { untilResolved: true }),
      });
      await audit('snoozed', until ? `until ${until}` : 'until resolved');
      await thread(
        client,
        channel,
        threadTs,
        `:zzz: ${mentionUser(user)} snoozed this incident ${until ? `until ${slackDate(until)}` : 'until it resolves'}: no new replies in this thread until then (the message above still follows the state). *Unsnooze* on it undoes this.`,
      );
    } else {
      const had = await quiet.unsnooze(cluster.name, inc.fingerprint);
      await audit('unsnoozed');
      if (had)
        await thread(
          client,
          channel,
          threadTs,
          `:bell: ${mentionUser(user)} unsnoozed this incident: changes are replied here again.`,
        );
    }
    await refreshAlertParent({ ...deps.alertThreads.post, client, log }, cluster.name, inc.fingerprint);
    log.info({ cluster: cluster.name, fingerprint: inc.fingerprint, action: action.action_id }, 'alert thread updated');
  } catch (err) {
    log.error({ err }, 'alert thread click failed');
    await say(`Could not do that: ${md(describeError(err), { max: 300 })}`);
  }
}

/** `{ c: cluster, f: fingerprint }` from a button value (render-alert.ts threadValue), or undefined. */
function parseTarget(raw: string): { c: string; f: string } | undefined {
  try {
    const v = JSON.parse(raw) as { c?: unknown; f?: unknown };
    return typeof v.c === 'string' && typeof v.f === 'string' ? { c: v.c, f: v.f } : undefined;
  } catch {
    return undefined;
  }
}

async function thread(client: Args['client'], channel: string, ts: string, text: string): Promise<void> {
  await client.chat.postMessage({
    channel,
    thread_ts: ts,
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text, verbatim: true } }],
    unfurl_links: false,
  });
}

/**
 * The exported file's name: `timeline-<cluster>-<YYYYMMDD-HHMM>.md` (the cluster name kept to file-safe characters).
 */
export function timelineFilename(cluster: string, now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `timeline-${cluster.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)}-${stamp}.md`;
}

/** The short line posted with the file: whose timeline, who exported it, how long it is. */
export function timelineSummary(cluster: string, markdown: string, user: string): string {
  const lines = markdown.split('\n').length;
  return `:scroll: Incident timeline of \`${md(cluster, { max: 100 })}\`, exported by ${mentionUser(user)}: the Markdown file below (${lines} lines) is ready for a postmortem.`;
}

/**
 * The timeline inline (when it cannot be attached as a file): preformatted rich-text blocks hold it verbatim (Slack
 * parses no mrkdwn, links or mentions in rich-text `text` elements); a timeline too long for one message is cut with a
 * line naming the CLI command that prints all of it.
 */
export function timelineMessage(
  cluster: string,
  markdown: string,
  user: string,
): { text: string; blocks: types.KnownBlock[] } {
  const chunks: string[] = [];
  for (let i = 0; i < markdown.length && chunks.length < TIMELINE_BLOCKS; i += TIMELINE_CHUNK)
    chunks.push(markdown.slice(i, i + TIMELINE_CHUNK));
  const cut = chunks.join('').length < markdown.length;
  const blocks: types.KnownBlock[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `:scroll: Incident timeline of \`${md(cluster, { max: 100 })}\`, exported by ${mentionUser(user)} (Markdown, ready for a postmortem):`,
        verbatim: true,
      },
    },
    ...chunks.map((c) => ({
      type: 'rich_text' as const,
      elements: [{ type: 'rich_text_preformatted' as const, elements: [{ type: 'text' as const, text: c }] }],
    })),
  ];
  if (cut)
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `_Cut at ${TIMELINE_BLOCKS * TIMELINE_CHUNK} characters: \`k8s-health timeline ${md(cluster, { max: 100 })}\` prints all of it._`,
          verbatim: true,
        },
      ],
    });
  return { text: `Incident timeline of ${md(cluster, { max: 100 })}`, blocks };
}
