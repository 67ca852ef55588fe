import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SectionId } from '../../diagnose/finding.js';
import { neutralizeMrkdwn } from '../../text/neutralize-mrkdwn.js';
import { detailedFindings, planCard, proposalKey, renderBlocks } from '../render/render-blocks.js';
import type { Report } from '../../report/report.js';
import type { SlackMessage } from '../render/clamp-blocks.js';
import type { CommandOutcome } from '../receive/create-metrics.js';
import { parseCommand } from '../receive/parse-command.js';
import { postAnswer, type PostedAnswer } from '../post/post-answer.js';
import { renderHelp } from '../render/render-help.js';
import { renderClusterList } from '../render/render-cluster-list.js';
import { renderClusterPicker } from '../render/render-cluster-picker.js';
import { mentionUser } from '../render/mention-user.js';
import { renderScanFailed, renderScanning } from '../render/render-scanning.js';
import type { SlackDeps } from '../slack-deps.js';
import { describeError } from '../../errors/describe-error.js';
import { createRequestLogger } from '../receive/create-request-logger.js';
import { fixKey } from '../../approvals/request/fix-key.js';

type CommandArgs = Pick<SlackCommandMiddlewareArgs, 'command' | 'ack' | 'respond'> & Pick<AllMiddlewareArgs, 'client'>;

/**
 * `/k8s-health [CLUSTER [SECTION]]`. Numbered flow:
 * 1. parse; help and errors are the ack itself (ephemeral, nothing public);
 * 2. ack at once (Slack's 3 s deadline), then work;
 * 3. answer in the channel from the latest stored report — or "scanning…" when there is none;
 * 4. when that report is older than scan.freshSeconds (or absent), scan afresh and update the same message.
 */
export async function handleHealthCommand(
  { command, ack, respond, client }: CommandArgs,
  deps: SlackDeps,
): Promise<void> {
  const started = process.hrtime.bigint();
  const count = (outcome: CommandOutcome) => deps.metrics.commands.inc({ outcome });
  const log = createRequestLogger(deps.log, {
    triggerId: command.trigger_id,
    user: command.user_id,
    channel: command.channel_id,
  });
  const parsed = parseCommand(command.text ?? '', { config: deps.config, channelId: command.channel_id });
  if (parsed.kind === 'help') {
    await ack({ response_type: 'ephemeral', text: renderHelp(deps.config) });
    count('help');
    return;
  }
  if (parsed.kind === 'error') {
    await ack({ response_type: 'ephemeral', text: parsed.message });
    count('rejected');
    return;
  }
  if (parsed.kind === 'pick') {
    // Several clusters and no name: a picker to the one who typed it (handle-pick-cluster.ts answers the pick).
    const picker = renderClusterPicker(
      parsed.clusters.map((c) => c.name),
      parsed.section,
    );
    await ack({ response_type: 'ephemeral', text: picker.text, blocks: picker.blocks });
    count('help');
    return;
  }
  await ack();
  if (parsed.kind === 'list') {
    // Fleet mode (docs/fleet.md): every cluster this channel may query, worst first, from stored reports.
    try {
      const entries = await Promise.all(
        parsed.clusters.map(async (c) => {
          const stored = await deps.reports.latest(c.name);
          return {
            name: c.name,
            fleet: c.fleet?.fleet,
            status: stored?.report.status,
            enrolled: c.fleet ? c.fleet.enrolled : !c.dump,
            storedAt: stored?.storedAt,
          };
        }),
      );
      await postAnswer(client, respond, command.channel_id, renderClusterList(entries));
      count('answered');
      log.info({ clusters: entries.length }, 'command answered: cluster list');
    } catch (err) {
      count('error');
      deps.metrics.errors.inc({ where: 'command' });
      log.error({ err }, 'command failed');
      await respond({
        response_type: 'ephemeral',
        text: `k8s-health could not list the clusters: ${neutralizeMrkdwn(describeError(err), { max: 500 })}`,
      }).catch(() => undefined);
    }
    return;
  }

  const cluster = parsed.cluster.name;
  const section = parsed.section;
  // The typed text is the user's: quoted back neutralized like everything else that is not ours.
  const footer =
    `/k8s-health ${neutralizeMrkdwn(command.text?.trim() ?? '', { max: 100 })} asked by ${mentionUser(command.user_id)}`.replace(
      /\s+asked/,
      ' asked',
    );
  try {
    const stored = await deps.reports.latest(cluster);
    const ageMs = stored ? deps.now().getTime() - Date.parse(stored.storedAt) : Infinity;
    // Freshness is about when we last scanned (storedAt), not collectedAt: a dump's data can be old
    // forever, and rescanning it would not make it younger.
    const fresh = ageMs <= deps.config.scan.freshSeconds * 1000;
    const first = stored
      ? await render(stored.report, { section, stale: !fresh }, deps)
      : renderScanning(cluster, section);
    const answer = await postAnswer(client, respond, command.channel_id, withFooter(first, footer));
    if (stored) await remember(answer, stored.report, withFooter(first, footer), section, deps);
    deps.metrics.commandSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    count(fresh ? 'answered' : stored ? 'stale' : 'scanning');
    log.info(
      { cluster, section: section ?? null, answer: fresh ? 'fresh' : stored ? 'stale' : 'scanning', via: answer.via },
      'command answered',
    );
    if (fresh) return;

    let next: SlackMessage;
    let latest: Report | undefined;
    try {
      const scanned = await deps.requestScan(cluster);
      latest = scanned.report;
      next = await render(scanned.report, { section }, deps);
    } catch (err) {
      deps.metrics.errors.inc({ where: 'scan' });
      const reason = describeError(err);
      log.warn({ cluster, err }, 'scan failed');
      next = stored
        ? await render(
            stored.report,
            { section, note: `:x: Fresh scan failed (${reason}); this is the last stored report.` },
            deps,
          ) // the note is neutralized whole by renderBlocks
        : renderScanFailed(cluster, reason);
    }
    await answer.update(withFooter(next, footer));
    await remember(answer, latest ?? stored?.report, withFooter(next, footer), section, deps);
  } catch (err) {
    count('error');
    deps.metrics.errors.inc({ where: 'command' });
    const reason = describeError(err);
    log.error({ cluster, err }, 'command failed');
    await respond({
      response_type: 'ephemeral',
      text: `k8s-health could not answer for ${neutralizeMrkdwn(cluster, { max: 100 })}: ${neutralizeMrkdwn(reason, { max: 500 })}`,
    }).catch(() => undefined);
  }
}

/**
 * Render a report (the card) after storing the proposals of its fix buttons, so each button carries only an opaque id.
 */
async function render(
  report: Report,
  opts: { section?: SectionId; stale?: boolean; note?: string },
  deps: SlackDeps,
): Promise<SlackMessage> {
  const proposalIds: Record<string, string> = {};
  const ranFixes: Record<string, string> = {};
  const onCard = detailedFindings(report, opts);
  // A fix that ran since the problem was first seen shows as done, not as a button.
  const keys = onCard.map((f) => f.remediations.map((r) => fixKey(report.cluster, r)));
  const ran = deps.fixesRan ? await deps.fixesRan(keys.flat()) : {};
  for (const [i, f] of onCard.entries()) {
    // Every fix of a root cause on the card becomes something to press (render-fix-buttons.ts).
    for (const [n, proposal] of f.remediations.entries()) {
      const at = ran[keys[i]![n]!];
      const start = Date.parse(f.firstSeen ?? f.since ?? '');
      if (at && (Number.isNaN(start) || Date.parse(at) >= start)) {
        ranFixes[proposalKey(f, n)] = at;
        continue;
      }
      proposalIds[proposalKey(f, n)] = await deps.proposals.save({
        cluster: report.cluster,
        findingId: f.id,
        fingerprint: f.fingerprint,
        proposal,
        createdAt: deps.now().toISOString(),
      });
    }
  }
  return renderBlocks(report, {
    ...opts,
    now: deps.now(),
    proposalIds,
    ranFixes,
    runbookBaseUrl: deps.config.slack.runbookBaseUrl,
  });
}

/**
 * Remember a card posted with chat.postMessage (a response_url answer cannot be edited later), with
 * the problems it shows, so the notify worker marks it outdated when one of them resolves.
 */
async function remember(
  answer: PostedAnswer,
  report: Report | undefined,
  message: SlackMessage,
  section: SectionId | undefined,
  deps: SlackDeps,
): Promise<void> {
  if (!deps.answers || !report || answer.via !== 'message' || !answer.channel || !answer.ts) return;
  const fingerprints = planCard(report, { section }).problems.map((f) => f.fingerprint);
  if (fingerprints.length === 0) return;
  await deps.answers
    .remember({
      channel: answer.channel,
      ts: answer.ts,
      cluster: report.cluster,
      fingerprints,
      postedAt: deps.now().toISOString(),
      message: { text: message.text, blocks: message.blocks },
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'answer card not remembered'));
}

function withFooter(message: SlackMessage, footer: string): SlackMessage {
  return {
    text: message.text,
    blocks: [...message.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: footer }] }],
  };
}
