import type { types } from '@slack/bolt';
import { formatAge } from '../diagnose/facts/age.js';
import { SEVERITY_RANK, type Severity } from '../diagnose/finding.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../text/neutralize-mrkdwn.js';
import { proposalKey } from './render-blocks.js';
import type { AlertChange, AlertChangeDetail, Incident } from '../alerts/incident.js';
import { proposeFixActionId } from './action-ids.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';

type KnownBlock = types.KnownBlock;

const SEVERITY_EMOJI: Record<Severity, string> = { critical: ':red_circle:', warning: ':warning:', info: ':information_source:' };
const EVIDENCE_HEAD = 4;

/**
 * The parent message of an alert thread (pure), always the incident's current state: title,
 * severity, since, cause, the head of the evidence and the fixes as buttons (the same action ids
 * and opaque proposal ids as `/k8s-health`, so the approval flow works from the thread too).
 * A resolved incident says so with its duration and offers no fixes. Everything from the finding
 * and the incident's stored state is untrusted text (neutralize-mrkdwn.ts, or plain_text).
 */
export function renderAlertParent(inc: Incident, opts: { proposalIds?: Readonly<Record<string, string>> } = {}): SlackMessage {
  const f = inc.finding;
  const resolved = inc.status === 'resolved';
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  // How long the problem was seen: first to last sighting (the resolution itself waits resolveAfterScans more scans).
  const lasted = formatAge(Date.parse(inc.lastSeenAt) - Date.parse(inc.openedAt));
  const head = `${resolved ? ':white_check_mark: Resolved · ' : ''}${neutralizeSlackPlainText(`${inc.cluster}: ${f.title}`, { max: 120 })}`;
  const time = (v: unknown) => md(v, { max: 40 });
  const severity = SEVERITY_EMOJI[f.severity] ? `${SEVERITY_EMOJI[f.severity]} *${f.severity}*` : `*${md(f.severity, { max: 20 })}*`;
  const state = resolved
    ? `*Resolved* at ${time(inc.resolvedAt)}: it lasted ${lasted} (opened ${time(inc.openedAt)}, last seen ${time(inc.lastSeenAt)})`
    : `${severity} · open since ${time(inc.openedAt)}${f.since ? ` · problem since ${time(f.since)}` : ''} · last seen ${time(inc.lastSeenAt)}`;
  const lines = [`\`${md(f.id, { max: 80 })}\` · ${md(subject, { max: 300 })}`, state];
  if (f.cause) lines.push(`*Cause:* ${md(f.cause, { max: 1000 })}`);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length) {
    lines.push(`*Confidence:* ${md(f.confidence ?? 'high', { max: 10 })}${f.missing?.length ? ` — missing: ${md(f.missing.join('; '), { max: 300 })}` : ''}`);
  }
  for (const e of f.evidence.slice(0, EVIDENCE_HEAD)) lines.push(`> ${md(e, { max: 400 })}`);
  if (f.evidence.length > EVIDENCE_HEAD) lines.push(`> _+${f.evidence.length - EVIDENCE_HEAD} more evidence lines in the thread and in \`/k8s-health ${md(inc.cluster, { max: 100 })}\`_`);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: head, emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
  ];
  if (!resolved) {
    const buttons: types.Button[] = [];
    f.remediations.forEach((r, i) => {
      const id = opts.proposalIds?.[proposalKey(f, i)];
      if (id) buttons.push({ type: 'button', action_id: proposeFixActionId(i), text: { type: 'plain_text', text: neutralizeSlackPlainText(r.label, { max: 75 }), emoji: true }, value: id });
    });
    if (buttons.length > 0) {
      blocks.push({ type: 'actions', block_id: `fix:${f.fingerprint}`.slice(0, 255), elements: buttons });
      const risks = f.remediations.map((r) => `:wrench: ${md(r.label, { max: 200 })} — risk: ${md(r.risk, { max: 300 })}`);
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${risks.join('\n')}\n_Every fix needs two approvals before it runs._` }] });
    }
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `Alert thread · updates are replies below · fingerprint \`${neutralizeMrkdwnId(f.fingerprint)}\`` }] });
  const what = md(`${inc.cluster}: ${f.title}`, { max: 300 });
  const text = resolved ? `Resolved: ${what} (lasted ${lasted})` : `${md(f.severity.toUpperCase(), { max: 20 })} ${what}`;
  return clampBlocks({ text, blocks });
}

/** How many new evidence lines one reply quotes (alerts/ keeps at most this many per change too). */
const MAX_REPLY_EVIDENCE = 6;

/**
 * A thread reply for one change (pure): its details (alerts/incident.ts, raw data) worded as mrkdwn
 * lines, every value from the cluster neutralized here, and the fallback text. A change without
 * details (one stored by an older version, alerts/migrate-alert-state.ts) says what kind it was and when.
 */
export function renderAlertReply(inc: Incident, change: AlertChange): SlackMessage {
  const lines = change.details.flatMap(renderChangeDetail);
  const body = lines.join('\n') || `${md(change.kinds.join(', '), { max: 200 })} at ${md(change.at, { max: 40 })}`;
  return clampBlocks({
    text: `${md(`${inc.cluster} ${inc.finding.id}`, { max: 200 })}: ${lines[0] ?? md(change.kinds.join(', '), { max: 200 })}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: body } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `scan of ${md(change.at, { max: 40 })}` }] },
    ],
  });
}

/** The reply lines of one detail. */
function renderChangeDetail(d: AlertChangeDetail): string[] {
  switch (d.kind) {
    case 'reopened':
      return [`:repeat: *Back again* ${formatAge(d.resolvedForMs)} after it was resolved — this thread is open again.`];
    case 'severity': {
      const up = SEVERITY_RANK[d.to] < SEVERITY_RANK[d.from];
      return [`${up ? ':arrow_up: Severity raised' : ':arrow_down: Severity lowered'}: ${md(d.from, { max: 20 })} → *${md(d.to, { max: 20 })}*`];
    }
    case 'recreation':
      return [`:recycle: Recreation counted again: ${Number(d.from)} → *${Number(d.to)}* machine replacements`];
    case 'evidence':
      return [
        ':mag: New evidence:',
        ...d.lines.slice(0, MAX_REPLY_EVIDENCE).map((e) => `> ${md(e, { max: 400 })}`),
        ...(d.more > 0 ? [`> _+${Number(d.more)} more_`] : []),
      ];
    case 'related':
      return d.findings.map((r) => `:link: Related finding: ${md(r.severity, { max: 20 })} *${md(r.title, { max: 300 })}* (\`${md(r.id, { max: 80 })}\`)`);
    case 'resolved':
      if (d.reason === 'cluster-renamed') return [`:twisted_rightwards_arrows: *Resolved here: cluster renamed* — it is now \`${md(d.renamedTo ?? '', { max: 120 })}\` (another Cluster of the same name appeared); its alerts continue under that name.`];
      if (d.reason === 'cluster-deleted') return [`:white_check_mark: *Resolved: cluster deleted* — its Cluster object is no longer in the fleet (deleted, or no longer matched by the fleet's namespaces or selector); it lasted ${formatAge(d.lastedMs)}.`];
      return [`:white_check_mark: *Resolved*: not seen in ${Number(d.missedScans)} consecutive scans (last seen ${md(d.lastSeenAt, { max: 40 })}); it lasted ${formatAge(d.lastedMs)}.`];
    default:
      return [];
  }
}
