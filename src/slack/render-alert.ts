import type { types } from '@slack/bolt';
import { formatAge } from '../diagnose/facts/age.js';
import type { Severity } from '../diagnose/finding.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../text/neutralize-mrkdwn.js';
import { proposalKey } from '../report/render-blocks.js';
import type { AlertChange, Incident } from '../store/alert-state-store.js';
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

/**
 * A thread reply for one change (pure): its lines, and the fallback text. The lines were built by
 * jobs/analyze-alert-changes.ts with every untrusted value already neutralized (our mrkdwn around
 * them must stay mrkdwn); what is added here is neutralized here.
 */
export function renderAlertReply(inc: Incident, change: AlertChange): SlackMessage {
  const body = change.lines.join('\n') || `${md(change.kinds.join(', '), { max: 200 })} at ${md(change.at, { max: 40 })}`;
  return clampBlocks({
    text: `${md(`${inc.cluster} ${inc.finding.id}`, { max: 200 })}: ${change.lines[0] ?? md(change.kinds.join(', '), { max: 200 })}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: body } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `scan of ${md(change.at, { max: 40 })}` }] },
    ],
  });
}
