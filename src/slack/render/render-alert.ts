import type { types } from '@slack/bolt';
import { formatAge } from '../../diagnose/facts/age.js';
import { SEVERITY_RANK, type Severity } from '../../diagnose/finding.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { proposalKey } from './render-blocks.js';
import type { AlertChange, AlertChangeDetail, Incident } from '../../alerts/incident.js';
import {
  ALERT_OWN_ACTION_ID,
  ALERT_SNOOZE_ACTION_ID,
  ALERT_TIMELINE_ACTION_ID,
  ALERT_UNSNOOZE_ACTION_ID,
} from '../action-ids.js';
import { renderFixButtons } from './render-fix-buttons.js';
import { renderInPlace, renderInPlaceSummary, type InPlaceShown } from './render-in-place.js';
import { renderSilenceAllMenu } from './render-prometheus-alert.js';
import { mentionUser } from './mention-user.js';
import { slackDate } from './slack-date.js';
import { incidentTimes } from './incident-times.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { splitTitle } from './split-title.js';
import { withoutRepeatedClauses } from './without-repeated-clauses.js';
import { withoutRestatedSince } from './without-restated-since.js';
import { withShortTimes } from './with-short-times.js';
import { withDateTokens } from './date-tokens.js';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import { cutAtClause } from './cut-at-clause.js';
import { estimateLines } from './estimate-lines.js';

type KnownBlock = types.KnownBlock;

const SEVERITY_EMOJI: Record<Severity, string> = {
  critical: ':red_circle:',
  warning: ':warning:',
  info: ':information_source:',
};

/** What the parent shows besides the incident: who is on it, whether it is snoozed, its fix ids. */
export interface AlertParentOptions {
  proposalIds?: Readonly<Record<string, string>>;
  /** "I'm on it": the Slack user who took the incident, and when. */
  owner?: { user: string; at: string };
  /** Snoozed: until when (ISO), or until the incident resolves. */
  snooze?: { until?: string; untilResolved?: boolean; by: string };
  /** Reversible fixes approved in this thread that are still in place: said, with their Undo, even once resolved. */
  inPlace?: readonly InPlaceShown[];
  /**
   * Prometheus alerts shown in the thread (docs/alertmanager.md): how many, how many resolved, and, when the bot may
   * silence them (alertmanager.url), the thread whose firing alerts its "Silence all alerts" menu silences.
   */
  prometheus?: { total: number; resolved: number; silence?: { threadTs: string } };
}

/**
 * Lines the parent may take on a 360 px wide phone (as estimate-lines.ts counts them): one screen. The
 * sandbox's browser test measures the real height against the same number.
 */
export const ALERT_LINE_BUDGET = 20;

/**
 * At most this many characters of the parent's headline and why, and of its symptoms' headlines (0: the
 * symptoms are only counted; -1: not even counted).
 */
export interface ParentCut {
  head: number;
  why: number;
  symptoms: number;
}

/**
 * How much the parent shows, most first: the planner takes the first that fits {@link ALERT_LINE_BUDGET},
 * counting the symptoms before cutting the why, and the why before the headline. What is wrong, since
 * when, why and the fix button are always there; the whole text is in the answer's Details.
 */
export const PARENT_STEPS: readonly ParentCut[] = [
  { head: 120, why: 160, symptoms: 100 },
  { head: 120, why: 160, symptoms: 50 },
  { head: 120, why: 160, symptoms: 0 },
  { head: 120, why: 110, symptoms: 0 },
  { head: 120, why: 80, symptoms: 0 },
  { head: 90, why: 80, symptoms: 0 },
  { head: 70, why: 80, symptoms: 0 },
  // Shorter, a headline would lose what is wrong ("Webhook kyverno-resource-validating-webhook-cfg…").
  { head: 70, why: 50, symptoms: 0 },
  // A parent with every line of its own (owner, snooze, alerts tally, a fix still in place) leaves the symptoms' count
  // to the answer's Details.
  { head: 70, why: 50, symptoms: -1 },
];

/**
 * The parent message of an alert thread (pure), always the incident's current state, as a summary
 * card that fits one phone screen ({@link ALERT_LINE_BUDGET} lines): what is wrong and where, since when
 * (a Slack date token: every reader sees their own zone; never a relative age, the parent is edited
 * later), why (the cause in one sentence), the root cause's symptoms, who is on it and whether it is
 * snoozed, then the one fix as a button and the thread's own buttons (I'm on it, Snooze/Unsnooze,
 * Export timeline). A resolved incident says "Resolved · lasted 14m" (computed from its times) and
 * offers no buttons but the timeline. Everything from the finding and the stored state is untrusted
 * text (neutralize-mrkdwn.ts, or plain_text).
 */
export function renderAlertParent(inc: Incident, opts: AlertParentOptions = {}): SlackMessage {
  const fits = (c: ParentCut) => estimateLines(parentBlocks(inc, opts, c)) <= ALERT_LINE_BUDGET;
  const cut = PARENT_STEPS.find(fits) ?? PARENT_STEPS[PARENT_STEPS.length - 1]!;
  const f = inc.finding;
  const what = withDateTokens(md(`${inc.cluster}: ${f.title.replace(AGO, '')}`, { max: 300 }));
  const text =
    inc.status === 'resolved'
      ? `Resolved: ${what} (lasted ${incidentTimes(inc).lasted ?? 'an unknown time'})`
      : `${md(f.severity.toUpperCase(), { max: 20 })} ${what}`;
  return clampBlocks({ text, blocks: parentBlocks(inc, opts, cut) });
}

/** The parent's blocks with its headline, why and symptoms shown as far as `cut` says. */
function parentBlocks(inc: Incident, opts: AlertParentOptions, cut: ParentCut): KnownBlock[] {
  const f = inc.finding;
  const resolved = inc.status === 'resolved';
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  // How long the problem lasted: from its own start to the last sighting (the resolution itself waits
  // resolveAfterScans more scans); the same record every other message reads (incident-times.ts).
  const times = incidentTimes(inc);
  const lasted = times.lasted ?? 'an unknown time';
  // The header is the title's headline; the rest of the title is the why (each fact once). A "since
  // <time>" that restates the problem's start is said once, below, as a date token; any other time in
  // the header (plain_text: no date token) is said short, in UTC.
  const title = splitTitle(withoutRestatedSince(f.title.replace(AGO, ''), times.since));
  const head = `${resolved ? ':white_check_mark: Resolved · ' : ''}${neutralizeSlackPlainText(withShortTimes(`${inc.cluster}: ${cutAtClause(title.head, cut.head)}`, times.lastSeen), { max: 150 })}`;
  const date = (iso: string | undefined) => slackDate(iso) ?? 'an unknown time';
  const severity = SEVERITY_EMOJI[f.severity]
    ? `${SEVERITY_EMOJI[f.severity]} *${f.severity}*`
    : `*${md(f.severity, { max: 20 })}*`;
  const lines: string[] = [];
  // Fingerprints stay in the context line: the merged thread is named by what it is about in its last reply.
  if (inc.mergedInto) lines.push(':link: Now followed in the thread of its root cause.');
  // When it was last seen is in the resolution reply: since when and how long say enough at a glance.
  else if (resolved)
    lines.push(`:white_check_mark: *Resolved* ${date(inc.resolvedAt)} · lasted ${lasted} (since ${date(times.since)})`);
  // Each fact once: the subject is named only when the title does not already name it.
  else
    lines.push(
      `${severity}${f.title.includes(f.subject.name) ? '' : ` · ${md(subject, { max: 200 })}`} · since ${date(times.since)}`,
    );
  const why = title.rest ?? (f.cause ? withoutRepeatedClauses(oneSentence(f.cause), f.title) : undefined);
  if (why) lines.push(`*Why:* ${mrkdwnSentence(cutAtClause(why, cut.why), cut.why * 2)}`);
  // Who is on it and whether it is snoozed share a line; what a snooze holds back (new replies) is said in the
  // thread when it is set.
  const snooze =
    opts.snooze && !resolved
      ? `:zzz: Snoozed ${opts.snooze.untilResolved ? 'until resolved' : `until ${date(opts.snooze.until)}`}${opts.snooze.by === opts.owner?.user ? '' : ` by ${mentionUser(opts.snooze.by)}`}`
      : undefined;
  const owner = opts.owner
    ? `:raising_hand: On it: ${mentionUser(opts.owner.user)} since ${date(opts.owner.at)}`
    : undefined;
  if (owner || snooze) lines.push([owner, snooze].filter(Boolean).join(' · '));
  // The alerts themselves are replies in the thread: the parent only tallies them, in one short line.
  if (opts.prometheus && opts.prometheus.total > 0)
    lines.push(
      `:bell: ${Number(opts.prometheus.resolved)}/${Number(opts.prometheus.total)} Prometheus alerts resolved`,
    );
  // Reversible fixes still in place: said even once resolved, with their Undo first in the row of buttons.
  const inPlace = renderInPlaceSummary(opts.inPlace ?? [], {
    ...(f.title.includes(f.subject.name) ? { named: f.subject.name } : {}),
  });
  lines.push(...inPlace.lines);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: head, emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
  ];
  // A resolved parent with no room to name its symptoms leaves them out: `/k8s-health` Details answers for the
  // cluster as it is now, no longer for what the incident was (its timeline keeps that).
  const symptoms = cut.symptoms < 0 || (resolved && cut.symptoms === 0) ? [] : (inc.symptoms ?? []);
  if (symptoms.length > 0) {
    // The symptoms' headlines, as many as fit `cut.symptoms` characters ("+N more"), or only their count
    // when the screen has no room for them; all of them, with their evidence, are in the Details of
    // `/k8s-health` (docs/slack.md). A symptom's title may hold a relative age ("(47m ago)"): wrong once
    // the parent is edited later, so dropped here.
    const named: string[] = [];
    let chars = 0;
    for (const s of cut.symptoms > 0 ? symptoms : []) {
      // Named by what happens: "KubeadmControlPlane ns/cp: 4 machine replacements…" reads "4 machine replacements…".
      // and up to its first comma ("…in 1h30m, about one every 12m" reads "…in 1h30m").
      const headline = splitTitle(withoutRestatedSince(s.title.replace(AGO, ''), s.since))
        .head.replace(/^[A-Z][A-Za-z]+ [\w./-]+: (?=\S.{20})/, '')
        .replace(/^(.{20,}?), .*$/, '$1');
      if (named.length > 0 && chars + headline.length > cut.symptoms) break;
      named.push(`${SEVERITY_EMOJI[s.severity] ?? ''} ${mrkdwnSentence(cutAtClause(headline, cut.symptoms), 200)}`);
      chars += headline.length;
    }
    const more = symptoms.length - named.length;
    const count = `${symptoms.length} symptom${symptoms.length === 1 ? '' : 's'}`;
    const text =
      named.length > 0
        ? `*${count}:* ${named.join(' · ')}${more > 0 ? ` · +${more} more` : ''}`
        : `*${count}:* see \`/k8s-health\` Details`;
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text }] });
  }
  const buttons: (types.Button | types.StaticSelect | types.Overflow)[] = [...inPlace.buttons];
  if (!resolved) {
    // Every fix of the root cause with a stored proposal is something to press.
    const fixes = f.remediations.flatMap((r, index) => {
      const id = opts.proposalIds?.[proposalKey(f, index)];
      return id ? [{ index, label: r.label, id }] : [];
    });
    // One button, the other fixes in its overflow menu: two long labels would take a phone's screen.
    buttons.push(...renderFixButtons(fixes, { primary: true, buttons: 1 }));
    if (!opts.owner)
      buttons.push({
        type: 'button',
        action_id: ALERT_OWN_ACTION_ID,
        text: { type: 'plain_text', text: "I'm on it", emoji: true },
        value: threadValue(inc),
      });
    if (opts.snooze)
      buttons.push({
        type: 'button',
        action_id: ALERT_UNSNOOZE_ACTION_ID,
        text: { type: 'plain_text', text: 'Unsnooze', emoji: true },
        value: threadValue(inc),
      });
    else
      buttons.push({
        type: 'static_select',
        action_id: ALERT_SNOOZE_ACTION_ID,
        placeholder: { type: 'plain_text', text: 'Snooze', emoji: true },
        options: SNOOZE_CHOICES.map((c) => ({
          text: { type: 'plain_text', text: c.label, emoji: true },
          value: `${c.value}|${threadValue(inc)}`,
        })),
      });
    // Silence 1h / 4h / 24h for all of the thread's Prometheus alerts while one still fires.
    const prometheus = opts.prometheus;
    if (prometheus?.silence && prometheus.resolved < prometheus.total)
      buttons.push(renderSilenceAllMenu(prometheus.silence.threadTs));
  }
  buttons.push({
    type: 'button',
    action_id: ALERT_TIMELINE_ACTION_ID,
    text: { type: 'plain_text', text: 'Export timeline', emoji: true },
    value: threadValue(inc),
  });
  blocks.push({ type: 'actions', block_id: `alert:${f.fingerprint}`.slice(0, 255), elements: buttons });
  // A fix's risk and its two approvals are stated where it is decided: on the request its proposal posts.
  blocks.push({
    type: 'context',
    elements: [
      { type: 'mrkdwn', text: `\`${md(f.id, { max: 80 })}\` · fingerprint \`${neutralizeMrkdwnId(f.fingerprint)}\`` },
    ],
  });
  return blocks;
}

/** The value of the thread's own buttons: which incident (cluster and root-cause fingerprint). */
export function threadValue(inc: Pick<Incident, 'cluster' | 'fingerprint'>): string {
  return JSON.stringify({ c: inc.cluster, f: inc.fingerprint });
}

/** The snooze choices (value: hours, or `resolved`). */
export const SNOOZE_CHOICES = [
  { value: '1h', label: '1 hour' },
  { value: '4h', label: '4 hours' },
  { value: 'resolved', label: 'Until resolved' },
] as const;

/** A relative age in a title ("(47m ago)"): wrong once the parent is edited later. */
const AGO = /\s*\(\d+[smhd] ago\)/g;

/** The first sentence of a cause chain: "why" in one sentence. */
function oneSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(text);
  return (m ? m[1]! : text).replace(/\s+/g, ' ');
}

/** How many new evidence lines one reply quotes (alerts/ keeps at most this many per change too). */
const MAX_REPLY_EVIDENCE = 6;

/**
 * A thread reply for one change (pure): its details (alerts/incident.ts, raw data) worded as mrkdwn
 * lines, every value from the cluster neutralized here, and the fallback text. A change without
 * details (one stored by an older version, alerts/migrate-alert-state.ts) says what kind it was and when.
 */
export function renderAlertReply(
  inc: Incident,
  change: AlertChange,
  opts: { inPlace?: readonly InPlaceShown[] } = {},
): SlackMessage {
  const lines = change.details.flatMap((d) => renderChangeDetail(d, inc));
  const body =
    lines.join('\n') || `${md(change.kinds.join(', '), { max: 200 })} at ${slackDate(change.at) ?? 'an unknown time'}`;
  return clampBlocks({
    text: `${md(`${inc.cluster} ${inc.finding.id}`, { max: 200 })}: ${lines[0] ?? md(change.kinds.join(', '), { max: 200 })}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: body } },
      // A resolution never goes silently over a safeguard still lifted: it says what, with the Undo.
      ...renderInPlace(opts.inPlace ?? [], { resolved: true }),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `scan of ${slackDate(change.at) ?? 'an unknown time'}` }] },
    ],
  });
}

/** The reply lines of one detail. */
function renderChangeDetail(d: AlertChangeDetail, inc: Incident): string[] {
  // Durations come from the incident record (incident-times.ts), as on the parent.
  const lasted = incidentTimes(inc).lasted ?? formatAge(d.kind === 'resolved' ? d.lastedMs : 0);
  switch (d.kind) {
    case 'reopened':
      return [`:repeat: *Back again* ${formatAge(d.resolvedForMs)} after it was resolved — this thread is open again.`];
    case 'severity': {
      const up = SEVERITY_RANK[d.to] < SEVERITY_RANK[d.from];
      return [
        `${up ? ':arrow_up: Severity raised' : ':arrow_down: Severity lowered'}: ${md(d.from, { max: 20 })} → *${md(d.to, { max: 20 })}*`,
      ];
    }
    case 'recreation':
      return [`:recycle: Recreation counted again: ${Number(d.from)} → *${Number(d.to)}* machine replacements`];
    case 'evidence':
      return [
        ':mag: New evidence:',
        ...d.lines.slice(0, MAX_REPLY_EVIDENCE).map((e) => `> ${mrkdwnSentence(e, 400)}`),
        ...(d.more > 0 ? [`> _+${Number(d.more)} more_`] : []),
      ];
    case 'related':
      return d.findings.map((r) =>
        r.relation === 'symptom'
          ? `:link: New symptom of this root cause: ${md(r.severity, { max: 20 })} *${mrkdwnSentence(withoutRestatedSince(r.title, r.since), 300)}*${r.since ? ` (since ${slackDate(r.since) ?? 'an unknown time'})` : ''}`
          : `:link: Related finding: ${md(r.severity, { max: 20 })} *${mrkdwnSentence(r.title, 300)}* (\`${md(r.id, { max: 80 })}\`)`,
      );
    case 'resolved':
      if (d.reason === 'cluster-renamed')
        return [
          `:twisted_rightwards_arrows: *Resolved here: cluster renamed* — it is now \`${md(d.renamedTo ?? '', { max: 120 })}\` (another Cluster of the same name appeared); its alerts continue under that name.`,
        ];
      if (d.reason === 'cluster-deleted')
        return [
          `:white_check_mark: *Resolved: cluster deleted* — its Cluster object is no longer in the fleet (deleted, or no longer matched by the fleet's namespaces or selector); it lasted ${lasted}.`,
        ];
      return [
        `:white_check_mark: *Resolved*: not seen in ${Number(d.missedScans)} consecutive scans (last seen ${slackDate(d.lastSeenAt) ?? 'an unknown time'}); lasted ${lasted}.`,
      ];
    case 'paused':
      return [
        `:double_vertical_bar: *Remediation is still paused* on MachineHealthCheck ${md(d.mhc, { max: 300 })}${d.since ? ` (since ${slackDate(d.since) ?? 'an unknown time'})` : ''}: failed machines are not replaced.`,
        d.resume
          ? `To resume once the cause is fixed: *${mrkdwnSentence(d.resume, 200)}* (button in \`/k8s-health\` for this cluster; it needs two approvals).`
          : 'To resume once the cause is fixed: remove the `cluster.x-k8s.io/paused` annotation from the MachineHealthCheck (or the skip-remediation annotation from its machines).',
      ];
    case 'merged':
      return [
        `:link: This turned out to be a symptom of *${mrkdwnSentence(d.title, 300)}*: it is followed in that thread from now on, and this thread is closed.`,
      ];
    default:
      return [];
  }
}
