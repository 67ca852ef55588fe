import type { types } from '@slack/bolt';
import { mrkdwnSentence } from './mrkdwn-sentence.js';
import { withoutRestatedSince } from './without-restated-since.js';
import { SEVERITY_RANK, type Finding } from '../../diagnose/finding.js';
import type { Report } from '../../report/report.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';
import { mentionUser } from './mention-user.js';
import { slackDate } from './slack-date.js';

/** One cluster on the Home tab: its latest report (absent: never scanned) and the approvals waiting on the viewer. */
export interface HomeCluster {
  name: string;
  report?: Report;
  /** Pending approval requests this user may still approve (not proposed by them, not voted yet). */
  waiting: { label: string; proposer: string; expiresAt: string; link?: string }[];
}

const STATE_EMOJI: Record<string, string> = {
  healthy: ':large_green_circle:',
  degraded: ':large_yellow_circle:',
  critical: ':red_circle:',
  unknown: ':white_circle:',
};

/**
 * The App Home view of one user (pure): one section per cluster the user may query — state, worst
 * finding and since when (Slack date tokens: the view is re-published later, so no relative ages),
 * then the approvals waiting on this user. Everything from a cluster or Redis is neutralized.
 */
export function renderAppHome(user: string, clusters: HomeCluster[], at: string): types.HomeView {
  const blocks: types.KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Cluster health', emoji: true } },
  ];
  if (clusters.length === 0)
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'No cluster you may query is configured for you here (clusters limited to channels are shown to their approvers).',
        verbatim: true,
      },
    });
  for (const c of clusters.slice(0, 40)) {
    const r = c.report;
    const worst = r ? worstFinding(r.findings) : undefined;
    const lines = [
      `${STATE_EMOJI[r?.status ?? 'unknown'] ?? ':white_circle:'} *${md(c.name, { max: 100 })}* · ${r ? md(r.status, { max: 20 }) : 'not scanned yet'}${r ? ` · data of ${slackDate(r.collectedAt || r.generatedAt) ?? 'an unknown time'}` : ''}`,
    ];
    if (worst)
      lines.push(
        `Worst: *${mrkdwnSentence(withoutRestatedSince(worst.title, worst.since), 200)}* (${md(worst.severity, { max: 20 })}) since ${slackDate(worst.since) ?? 'an unknown time'}`,
      );
    else if (r) lines.push('No problem found.');
    for (const w of c.waiting.slice(0, 5))
      lines.push(
        `:hourglass_flowing_sand: Waiting on you: *${md(w.label, { max: 150 })}* proposed by ${mentionUser(w.proposer)}, expires ${slackDate(w.expiresAt) ?? 'soon'}${w.link ? ` · <${w.link}|open>` : ''}`,
      );
    if (c.waiting.length > 5) lines.push(`_+${c.waiting.length - 5} more approvals waiting on you_`);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n'), verbatim: true } });
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `For ${mentionUser(user)} · updated ${slackDate(at) ?? at} · \`/k8s-health CLUSTER\` for the full answer`,
        verbatim: true,
      },
    ],
  });
  return { type: 'home', blocks: blocks.slice(0, 100) };
}

function worstFinding(findings: Finding[]): Finding | undefined {
  return [...findings]
    .filter((f) => f.severity !== 'info')
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])[0];
}
