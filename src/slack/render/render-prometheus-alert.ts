import type { types } from '@slack/bolt';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import type { AlertmanagerAlert } from '../../alertmanager/webhook-payload.js';
import type { ThreadTally } from '../../alertmanager/alert-receipt-store.js';
import { neutralizeMrkdwn as md, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { mentionUser } from './mention-user.js';
import {
  ALERTMANAGER_EXPIRE_ACTION_ID,
  ALERTMANAGER_SILENCE_ALL_ACTION_ID,
  ALERTMANAGER_SILENCE_1H_ACTION_ID,
  ALERTMANAGER_SILENCE_24H_ACTION_ID,
  ALERTMANAGER_SILENCE_4H_ACTION_ID,
} from '../action-ids.js';
import { slackDate } from './slack-date.js';

type KnownBlock = types.KnownBlock;

/** Where an alert is shown and why: it joins its root cause's thread, or has a thread of its own. */
export type PrometheusAlertContext =
  | {
      placement: 'joined';
      cluster: string;
      finding: { id: string; title: string };
      root: { id: string; title: string };
    }
  | { placement: 'own'; cluster?: string; reason: 'no-cause' | 'unknown-cluster' };

/** The alert's name and the object its labels name, e.g. "KubeNodeNotReady · node worker-1". Untrusted: neutralized. */
export function describePrometheusAlert(alert: Pick<AlertmanagerAlert, 'labels'>): string {
  const l = alert.labels;
  const object = l.pod
    ? `pod ${l.namespace ? `${l.namespace}/` : ''}${l.pod}`
    : l.node
      ? `node ${l.node}`
      : l.namespace
        ? `namespace ${l.namespace}`
        : l.instance
          ? `instance ${l.instance}`
          : l.job
            ? `job ${l.job}`
            : '';
  return `${md(l.alertname ?? 'alert', { max: 80 })}${object ? ` · ${md(object, { max: 160 })}` : ''}`;
}

/**
 * A Prometheus alert in Slack (pure): one short reply in its root cause's thread (its name, object,
 * severity, summary, since when, the finding it matched), or the parent of a thread of its own that says
 * why it has none (no finding matches yet, or no known cluster). A resolved alert's message is edited
 * to say so. Every label and annotation is untrusted text (neutralize-mrkdwn.ts).
 */
/** The Silence buttons' durations, by action id (handle-alertmanager-silence.ts reads the hours from here). */
export const SILENCE_HOURS: Readonly<Record<string, number>> = {
  [ALERTMANAGER_SILENCE_1H_ACTION_ID]: 1,
  [ALERTMANAGER_SILENCE_4H_ACTION_ID]: 4,
  [ALERTMANAGER_SILENCE_24H_ACTION_ID]: 24,
};

/**
 * What a Silence button silences: one alert (`a` fingerprint, `s` startsAt) or every alert of the thread it is in
 * (`t`).
 */
export type SilenceTarget = { a: string; s: string } | { t: string };

/**
 * The root cause's parent: Silence 1h / 4h / 24h for every firing Prometheus alert of its thread, in one overflow
 * menu at the end of the parent's row of buttons (a select, or three more buttons, would take another row and the
 * parent past one phone screen). Each option's value names its hours and the thread (`{t, h}`).
 */
export function renderSilenceAllMenu(threadTs: string): types.Overflow {
  return {
    type: 'overflow',
    action_id: ALERTMANAGER_SILENCE_ALL_ACTION_ID,
    options: Object.values(SILENCE_HOURS).map((hours) => ({
      text: { type: 'plain_text' as const, text: `Silence all alerts ${hours}h`, emoji: true },
      value: JSON.stringify({ t: threadTs, h: hours }),
    })),
  };
}

function silenceButtons(target: SilenceTarget): KnownBlock {
  const value = JSON.stringify(target);
  return {
    type: 'actions',
    elements: Object.entries(SILENCE_HOURS).map(([actionId, hours]) => ({
      type: 'button' as const,
      action_id: actionId,
      text: { type: 'plain_text' as const, text: `Silence ${hours}h` },
      value,
    })),
  };
}

export function renderPrometheusAlert(
  alert: AlertmanagerAlert,
  ctx: PrometheusAlertContext,
  opts: { silence?: boolean } = {},
): SlackMessage {
  const resolved = alert.status === 'resolved';
  const severity = alert.labels.severity ? ` · ${md(alert.labels.severity, { max: 20 })}` : '';
  const summary = alert.annotations.summary ?? alert.annotations.description ?? alert.annotations.message;
  const head = `${resolved ? ':white_check_mark: *Resolved* ' : ':bell: '}*Prometheus:* ${describePrometheusAlert(alert)}${severity}`;
  const lines = [head];
  if (summary) lines.push(`> ${md(summary, { max: 300 })}`);
  lines.push(
    `Firing since ${slackDate(alert.startsAt) ?? 'an unknown time'}${resolved && alert.endsAt ? `, resolved ${slackDate(alert.endsAt) ?? ''}` : ''}`,
  );
  if (ctx.placement === 'joined') {
    lines.push(
      `:link: Symptom of this thread's root cause: matches ${md(ctx.finding.id, { max: 60 })} (${mrkdwnSentence(ctx.finding.title, 160)})`,
    );
  } else if (ctx.reason === 'no-cause') {
    lines.push(
      `:grey_question: ${ctx.cluster ? `${md(ctx.cluster, { max: 80 })}: ` : ''}the bot found no cause for this alert yet (no finding on the same object after a fresh scan)`,
    );
  } else {
    lines.push(
      `:grey_question: No known cluster: its labels match no cluster name (alertmanager.clusterLabel) and no cluster's alertmanager.matchers`,
    );
  }
  const text = neutralizeSlackPlainText(`${resolved ? 'Resolved: ' : ''}${alert.labels.alertname ?? 'alert'}`, {
    max: 150,
  });
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }];
  if (opts.silence && !resolved) blocks.push(silenceButtons({ a: alert.fingerprint, s: alert.startsAt }));
  return clampBlocks({ text, blocks });
}

/**
 * The thread's tally line: "Prometheus alerts: 2 of 5 resolved". Silencing them all is offered on the parent
 * (render-alert.ts), where it is seen first; a tally line posted by an earlier version keeps its "Silence all"
 * buttons working (handle-alertmanager-silence.ts).
 */
export function renderAlertTally(tally: ThreadTally): SlackMessage {
  const all = tally.total > 0 && tally.resolved === tally.total;
  const line = `${all ? ':white_check_mark:' : ':bar_chart:'} Prometheus alerts in this thread: ${tally.resolved} of ${tally.total} resolved`;
  return clampBlocks({ text: line, blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: line }] }] });
}

/** Who silenced what until when, with the Expire button (value: the silence ids and the cluster). */
export function renderSilenceNotice(
  s: { user: string; what: string[]; until: string; ids: string[]; cluster?: string },
  expired?: { user: string },
): SlackMessage {
  const what =
    s.what.length === 1
      ? s.what[0]!
      : `${s.what.length} alerts (${s.what.slice(0, 5).join(', ')}${s.what.length > 5 ? ', …' : ''})`;
  const line = expired
    ? `:loud_sound: ${mentionUser(expired.user)} expired the silence of ${what} (set by ${mentionUser(s.user)})`
    : `:mute: ${mentionUser(s.user)} silenced ${what} in Alertmanager until ${slackDate(s.until) ?? s.until}`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: line } }];
  if (!expired) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ALERTMANAGER_EXPIRE_ACTION_ID,
          text: { type: 'plain_text', text: 'Expire' },
          value: JSON.stringify({
            ids: s.ids,
            ...(s.cluster ? { c: s.cluster } : {}),
            u: s.user,
            w: s.what.slice(0, 5),
            until: s.until,
          }),
        },
      ],
    });
  }
  return clampBlocks({ text: line.replace(/[*:]/g, ''), blocks });
}

/** The line a notification with more alerts than taken leaves in the thread. */
export function renderAlertOverflow(more: number): SlackMessage {
  const line = `:warning: ${more} more alert${more === 1 ? '' : 's'} arrived in the same Alertmanager notification and ${more === 1 ? 'was' : 'were'} not shown (alertmanager.maxAlertsPerRequest, or the receiver's max_alerts): see Alertmanager for all of them`;
  return clampBlocks({ text: line, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line } }] });
}

/** The one page of an incident: the cluster's on-call user group, for a critical root cause with Prometheus alerts. */
export function renderOncallPage(group: string, root: { cluster: string; title: string }): SlackMessage {
  const mention = /^S[A-Z0-9]{2,20}$/.test(group) ? `<!subteam^${group}>` : md(group, { max: 30 });
  const line = `:rotating_light: ${mention} critical root cause on ${md(root.cluster, { max: 80 })}: ${mrkdwnSentence(root.title, 200)}. Prometheus alerts about it are gathered in this thread.`;
  return clampBlocks({
    text: neutralizeSlackPlainText(`Critical root cause on ${root.cluster}`, { max: 150 }),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line } }],
  });
}
