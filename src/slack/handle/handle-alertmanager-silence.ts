import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  BlockButtonAction,
  BlockOverflowAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import type { AlertmanagerApi } from '../../alertmanager/alertmanager-api.js';
import { silenceMatchers } from '../../alertmanager/alertmanager-api.js';
import type { AlertReceiptStore, ShownAlert } from '../../alertmanager/alert-receipt-store.js';
import type { ClusterConfig } from '../../config/config-schema.js';
import { describeError } from '../../errors/describe-error.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';
import {
  ALERTMANAGER_EXPIRE_ACTION_ID,
  ALERTMANAGER_SILENCE_ALL_ACTION_ID,
  ALERTMANAGER_SILENCE_1H_ACTION_ID,
  ALERTMANAGER_SILENCE_24H_ACTION_ID,
  ALERTMANAGER_SILENCE_4H_ACTION_ID,
} from '../action-ids.js';
import { createRequestLogger } from '../receive/create-request-logger.js';
import { describePrometheusAlert, renderSilenceNotice, SILENCE_HOURS } from '../render/render-prometheus-alert.js';
import type { SlackDeps } from '../slack-deps.js';

/** What the Silence and Expire buttons need besides SlackDeps (composed by compose/compose-slack-deps.ts). */
export interface AlertmanagerSilenceDeps {
  receipts: Pick<AlertReceiptStore, 'shown' | 'threadAlerts'>;
  /** Alertmanager's API v2 at alertmanager.url; absent: the buttons say it is not configured. */
  api?: AlertmanagerApi;
  /** The process's approver check (user ids, or members of user groups). */
  isAuthorized: (client: AllMiddlewareArgs['client'], cluster: ClusterConfig, user: string) => Promise<boolean>;
}

type Args = Pick<SlackActionMiddlewareArgs<BlockAction>, 'ack' | 'respond' | 'body'> &
  Pick<AllMiddlewareArgs, 'client'> & {
    action: BlockButtonAction['actions'][number] | BlockOverflowAction['actions'][number];
  };
type Deps = SlackDeps & { alertmanager: AlertmanagerSilenceDeps };

/**
 * "Silence all" of one thread silences at most this many alerts (one silence each; the Expire button carries their
 * ids).
 */
const MAX_SILENCES = 40;

/**
 * Register the Prometheus alert buttons: Silence 1h / 4h / 24h (an alert, or all of a thread's), the parent's
 * "Silence all alerts" menu, and Expire.
 */
export function registerAlertmanagerListeners(app: App, deps: Deps): void {
  app.action<BlockOverflowAction>({ type: 'block_actions', action_id: ALERTMANAGER_SILENCE_ALL_ACTION_ID }, (args) =>
    handleSilence(args, deps),
  );
  for (const id of [
    ALERTMANAGER_SILENCE_1H_ACTION_ID,
    ALERTMANAGER_SILENCE_4H_ACTION_ID,
    ALERTMANAGER_SILENCE_24H_ACTION_ID,
  ]) {
    app.action<BlockButtonAction>({ type: 'block_actions', action_id: id }, (args) => handleSilence(args, deps));
  }
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: ALERTMANAGER_EXPIRE_ACTION_ID }, (args) =>
    handleExpire(args, deps),
  );
}

/**
 * A Silence button, or a choice of the parent's "Silence all alerts" menu (docs/alertmanager.md "Silence"). Numbered
 * flow:
 * 1. ack; the value names one alert (fingerprint, startsAt) or the thread (with the hours, for the menu); its
 *    firing alerts are read from where the alerts worker recorded them (a resolved or forgotten one is not silenced);
 * 2. the clicker must be a silencer of every cluster involved (`alertmanager.silencers`, default the
 *    cluster's approvers; an alert of no known cluster: silencers only);
 * 3. one Alertmanager silence per alert, its matchers every label of the alert, `createdBy` the
 *    clicker's Slack name, the comment linking the thread; one failure expires the ones just made, so
 *    nothing is half done, and the clicker is told in one line;
 * 4. the thread says who silenced what until when, with an Expire button.
 */
export async function handleSilence({ ack, respond, body, client, action }: Args, deps: Deps): Promise<void> {
  await ack();
  const user = body.user?.id ?? '';
  const channel = body.channel?.id ?? body.container?.channel_id ?? '';
  const log = createRequestLogger(deps.log, { triggerId: body.trigger_id, user, channel });
  const say = (text: string) =>
    respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => undefined);
  try {
    const target = parseJson(action.type === 'overflow' ? action.selected_option.value : (action.value ?? ''));
    const hours =
      action.type === 'overflow'
        ? Object.values(SILENCE_HOURS).find((h) => h === target?.h)
        : SILENCE_HOURS[action.action_id];
    const message = body.message as { ts?: string; thread_ts?: string } | undefined;
    const threadTs = String(message?.thread_ts ?? message?.ts ?? body.container?.message_ts ?? '');
    if (!hours || !target || !user || !channel || !threadTs) {
      await say('This Silence button is not one the bot knows (an old message?).');
      return;
    }
    const keys =
      typeof target.a === 'string' && typeof target.s === 'string'
        ? [{ fingerprint: target.a, startsAt: target.s }]
        : typeof target.t === 'string'
          ? await deps.alertmanager.receipts.threadAlerts(channel, target.t)
          : [];
    const shown = (
      await Promise.all(keys.map(async (k) => ({ k, r: await deps.alertmanager.receipts.shown(k) })))
    ).filter(
      (x): x is { k: typeof x.k; r: ShownAlert } =>
        x.r !== undefined && x.r.status === 'firing' && x.r.channel === channel,
    );
    if (shown.length === 0) {
      await say('No firing alert left to silence here (resolved, or no longer tracked).');
      return;
    }
    if (shown.length > MAX_SILENCES) {
      await say(
        `This thread has ${shown.length} firing alerts: silence them in Alertmanager itself (the bot silences at most ${MAX_SILENCES} at once).`,
      );
      return;
    }
    const api = deps.alertmanager.api;
    if (!api) {
      await say("Silencing needs alertmanager.url in the config (Alertmanager's own address): nothing silenced.");
      return;
    }
    const clusters = [...new Set(shown.map((x) => x.r.cluster ?? ''))];
    for (const name of clusters) {
      if (!(await maySilence(deps, client, name, user))) {
        log.info({ cluster: name, reason: 'not-a-silencer' }, 'silence refused');
        await say(
          `You may not silence alerts of ${name ? md(name, { max: 80 }) : 'no known cluster'}: ask someone in alertmanager.silencers (default: the cluster's approvers).`,
        );
        return;
      }
    }
    const createdBy = await slackName(client, user, body.user as { name?: string; username?: string } | undefined);
    const now = deps.now();
    const until = new Date(now.getTime() + hours * 3_600_000).toISOString();
    const link = `https://slack.com/archives/${channel}/p${threadTs.replace('.', '')}`;
    const ids: string[] = [];
    try {
      for (const { r } of shown) {
        ids.push(
          await api.createSilence({
            matchers: silenceMatchers(r.labels),
            startsAt: now.toISOString(),
            endsAt: until,
            createdBy,
            comment: `Silenced from Slack by ${createdBy} (k8s-health): ${link}`,
          }),
        );
      }
    } catch (err) {
      // Nothing half done: the silences made before the failure are expired again.
      for (const id of ids)
        await api.expireSilence(id).catch((e: unknown) => log.warn({ err: e, silence: id }, 'silence rollback failed'));
      log.warn({ err, made: ids.length }, 'silence failed');
      await say(`Nothing silenced: ${md(describeError(err), { max: 300 })}`);
      return;
    }
    const what = shown.map(({ r }) => describePrometheusAlert(r));
    const cluster = clusters.length === 1 && clusters[0] ? clusters[0] : undefined;
    const notice = renderSilenceNotice({ user, what, until, ids, ...(cluster ? { cluster } : {}) });
    await client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      text: notice.text,
      blocks: notice.blocks,
      unfurl_links: false,
    });
    log.info({ silences: ids, until, alerts: shown.length }, 'alerts silenced in Alertmanager');
  } catch (err) {
    log.error({ err }, 'silence click failed');
    await say(`Could not silence: ${md(describeError(err), { max: 300 })}`);
  }
}

/** The Expire button under a silence notice: the same silencers may expire it; the notice then says who did. */
export async function handleExpire(
  {
    ack,
    respond,
    body,
    client,
    action,
  }: Pick<Args, 'ack' | 'respond' | 'body' | 'client'> & {
    action: BlockButtonAction['actions'][number];
  },
  deps: Deps,
): Promise<void> {
  await ack();
  const user = body.user?.id ?? '';
  const channel = body.channel?.id ?? body.container?.channel_id ?? '';
  const log = createRequestLogger(deps.log, { triggerId: body.trigger_id, user, channel });
  const say = (text: string) =>
    respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => undefined);
  try {
    const v = parseJson(action.value ?? '');
    const ids = Array.isArray(v?.ids)
      ? v.ids.filter((x): x is string => typeof x === 'string' && /^[0-9a-f-]{36}$/.test(x))
      : [];
    const ts = String((body.message as { ts?: string } | undefined)?.ts ?? body.container?.message_ts ?? '');
    if (!v || ids.length === 0 || !user || !channel || !ts) {
      await say('This Expire button is not one the bot knows (an old message?).');
      return;
    }
    const api = deps.alertmanager.api;
    if (!api) {
      await say('Expiring needs alertmanager.url in the config: nothing expired.');
      return;
    }
    const cluster = typeof v.c === 'string' ? v.c : '';
    if (!(await maySilence(deps, client, cluster, user))) {
      await say(
        `You may not expire silences of ${cluster ? md(cluster, { max: 80 }) : 'no known cluster'}: ask someone in alertmanager.silencers (default: the cluster's approvers).`,
      );
      return;
    }
    const failed: string[] = [];
    for (const id of ids) {
      await api.expireSilence(id).catch((err: unknown) => {
        failed.push(describeError(err));
      });
    }
    if (failed.length > 0) {
      await say(`${failed.length} of ${ids.length} silences not expired: ${md(failed[0], { max: 300 })}`);
      if (failed.length === ids.length) return;
    }
    const what = Array.isArray(v.w) ? v.w.filter((x): x is string => typeof x === 'string') : [];
    const notice = renderSilenceNotice(
      {
        user: typeof v.u === 'string' ? v.u : user,
        what: what.length ? what : ['the alerts'],
        until: typeof v.until === 'string' ? v.until : '',
        ids,
      },
      { user },
    );
    await client.chat.update({ channel, ts, text: notice.text, blocks: notice.blocks });
    log.info({ silences: ids }, 'silences expired in Alertmanager');
  } catch (err) {
    log.error({ err }, 'expire click failed');
    await say(`Could not expire: ${md(describeError(err), { max: 300 })}`);
  }
}

/**
 * Silencers: `alertmanager.silencers` when set, else the cluster's approvers; an alert of no known cluster needs
 * silencers.
 */
async function maySilence(deps: Deps, client: Args['client'], clusterName: string, user: string): Promise<boolean> {
  const silencers = deps.config.alertmanager.silencers;
  const cluster = clusterName ? deps.config.clusters.find((c) => c.name === clusterName) : undefined;
  const approvers = silencers ?? cluster?.approvers;
  if (!approvers || (clusterName && !cluster && !silencers)) return false;
  const subject: ClusterConfig = cluster
    ? { ...cluster, approvers }
    : { name: 'alertmanager', slack: { channels: [] }, approvers, remediation: { enabled: false } };
  return deps.alertmanager.isAuthorized(client, subject, user);
}

/** The clicker's Slack name for `createdBy` (users.info; the payload's name when that fails). */
async function slackName(
  client: Args['client'],
  user: string,
  payload: { name?: string; username?: string } | undefined,
): Promise<string> {
  try {
    const res = await client.users.info({ user });
    const u = res.user as { name?: string; real_name?: string } | undefined;
    const name = u?.real_name || u?.name;
    if (name) return `${name} (${user})`;
  } catch {
    // fall through: the payload's own name
  }
  return `${payload?.username ?? payload?.name ?? 'slack user'} (${user})`;
}

function parseJson(raw: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
