import type { types } from '@slack/bolt';
import { formatAge } from '../diagnose/facts/age.js';
import type { Severity } from '../diagnose/finding.js';
import { proposalKey } from '../report/render-blocks.js';
import type { AlertChange, Incident } from '../store/alert-state-store.js';
import { proposeFixActionId } from './action-ids.js';
import { clampBlocks, truncate, type SlackMessage } from './clamp-blocks.js';

type KnownBlock = types.KnownBlock;

const SEVERITY_EMOJI: Record<Severity, string> = { critical: ':red_circle:', warning: ':warning:', info: ':information_source:' };
const EVIDENCE_HEAD = 4;

/**
 * The parent message of an alert thread (pure), always the incident's current state: title,
 * severity, since, cause, the head of the evidence and the fixes as buttons (the same action ids
 * and opaque proposal ids as `/k8s-health`, so the approval flow works from the thread too).
 * A resolved incident says so with its duration and offers no fixes.
 */
export function renderAlertParent(inc: Incident, opts: { proposalIds?: Readonly<Record<string, string>> } = {}): SlackMessage {
  const f = inc.finding;
  const resolved = inc.status === 'resolved';
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  // How long the problem was seen: first to last sighting (the resolution itself waits resolveAfterScans more scans).
  const lasted = formatAge(Date.parse(inc.lastSeenAt) - Date.parse(inc.openedAt));
  const head = resolved ? `:white_check_mark: Resolved · ${inc.cluster}: ${f.title}` : `${inc.cluster}: ${f.title}`;
  const state = resolved
    ? `*Resolved* at ${inc.resolvedAt}: it lasted ${lasted} (opened ${inc.openedAt}, last seen ${inc.lastSeenAt})`
    : `${SEVERITY_EMOJI[f.severity]} *${f.severity}* · open since ${inc.openedAt}${f.since ? ` · problem since ${f.since}` : ''} · last seen ${inc.lastSeenAt}`;
  const lines = [`\`${f.id}\` · ${escape(subject)}`, state];
  if (f.cause) lines.push(`*Cause:* ${escape(f.cause)}`);
  if ((f.confidence ?? 'high') !== 'high' || f.missing?.length) {
    lines.push(`*Confidence:* ${f.confidence}${f.missing?.length ? ` — missing: ${escape(truncate(f.missing.join('; '), 300))}` : ''}`);
  }
  for (const e of f.evidence.slice(0, EVIDENCE_HEAD)) lines.push(`> ${escape(truncate(e, 400))}`);
  if (f.evidence.length > EVIDENCE_HEAD) lines.push(`> _+${f.evidence.length - EVIDENCE_HEAD} more evidence lines in the thread and in \`/k8s-health ${inc.cluster}\`_`);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(head, 150), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
  ];
  if (!resolved) {
    const buttons: types.Button[] = [];
    f.remediations.forEach((r, i) => {
      const id = opts.proposalIds?.[proposalKey(f, i)];
      if (id) buttons.push({ type: 'button', action_id: proposeFixActionId(i), text: { type: 'plain_text', text: r.label, emoji: true }, value: id });
    });
    if (buttons.length > 0) {
      blocks.push({ type: 'actions', block_id: `fix:${f.fingerprint}`.slice(0, 255), elements: buttons });
      const risks = f.remediations.map((r) => `:wrench: ${escape(r.label)} — risk: ${escape(r.risk)}`);
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${risks.join('\n')}\n_Every fix needs two approvals before it runs._` }] });
    }
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `Alert thread · updates are replies below · fingerprint \`${f.fingerprint}\`` }] });
  const text = resolved ? `Resolved: ${inc.cluster}: ${f.title} (lasted ${lasted})` : `${f.severity.toUpperCase()} ${inc.cluster}: ${f.title}`;
  return clampBlocks({ text, blocks });
}

/** A thread reply for one change (pure): its lines, and the fallback text. */
export function renderAlertReply(inc: Incident, change: AlertChange): SlackMessage {
  const body = change.lines.join('\n') || `${change.kinds.join(', ')} at ${change.at}`;
  return clampBlocks({
    text: truncate(`${inc.cluster} ${inc.finding.id}: ${change.lines[0] ?? change.kinds.join(', ')}`, 3000),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: body } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `scan of ${change.at}` }] },
    ],
  });
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
