import { describe, expect, it } from '@jest/globals';
import type { AlertChange, Incident } from '../../src/alerts/incident.js';
import { SECTION_IDS } from '../../src/diagnose/finding.js';
import type { Report } from '../../src/report/report.js';
import type { SlackMessage } from '../../src/slack/render/clamp-blocks.js';
import { renderAlertParent, renderAlertReply } from '../../src/slack/render/render-alert.js';
import { proposalKey, renderBlocks } from '../../src/slack/render/render-blocks.js';
import { renderDetails } from '../../src/slack/render/render-details.js';
import { renderOutdatedCard } from '../../src/slack/render/render-outdated-card.js';
import { playScenario } from '../support/play-scenario.js';
import { listScenarios } from '../support/scenarios.js';

/** An ISO 8601 time as a cluster writes it, anywhere in a text. */
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** A Slack date token: its fallback is what a client without them shows, and may say the time in UTC. */
const DATE_TOKEN = /<!date\^\d+\^[^|>]*\|[^>]*>/g;

/** Every text a reader may see in a message: its fallback and every `text` of its blocks, at any depth. */
function textsOf(message: SlackMessage): string[] {
  const out = [message.text];
  const walk = (x: unknown, key = ''): void => {
    if (typeof x === 'string') {
      if (key === 'text') out.push(x);
    } else if (Array.isArray(x)) x.forEach((y) => walk(y, key));
    else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) walk(v, k);
  };
  walk(message.blocks);
  return out;
}

/** Every change an incident's thread can be told, with what the scenario's findings carry. */
function everyChange(inc: Incident): AlertChange {
  const f = inc.finding;
  return {
    seq: inc.seq + 1,
    kinds: ['evidence', 'related', 'severity', 'recreation', 'paused', 'merged', 'reopened', 'resolved'],
    at: inc.lastSeenAt,
    details: [
      { kind: 'evidence', lines: f.evidence, more: 0 },
      {
        kind: 'related',
        findings: [
          ...(inc.symptoms ?? []),
          { fingerprint: 'x', id: f.id, title: f.title, severity: f.severity, relation: 'cause', since: f.since },
        ],
      },
      { kind: 'severity', from: 'warning', to: 'critical' },
      { kind: 'recreation', from: 1, to: 2 },
      { kind: 'paused', mhc: `${f.subject.namespace ?? ''}/${f.subject.name}`, since: f.since, resume: f.title },
      { kind: 'merged', into: 'x', id: f.id, title: f.title },
      { kind: 'reopened', resolvedForMs: 60_000 },
      { kind: 'resolved', missedScans: 2, lastSeenAt: inc.lastSeenAt, lastedMs: 60_000 },
    ],
  };
}

/**
 * Every message the bot posts about a scenario, as it posts it: the answer card (with fix buttons and
 * as `check --output blocks` prints it, each section view too), its Details, the card outdated, every
 * alert parent (open and resolved) and every kind of thread reply.
 */
function everyMessage(report: Report, incidents: Incident[]): [string, SlackMessage][] {
  const ids = Object.fromEntries(
    report.findings.flatMap((f) => f.remediations.map((_, i) => [proposalKey(f, i), `p_${i}`])),
  );
  const card = renderBlocks(report, { proposalIds: ids });
  const out: [string, SlackMessage][] = [
    ['card', card],
    ['card, stale', renderBlocks(report, { stale: true })],
    ['details', renderDetails(report, {})],
    ...SECTION_IDS.flatMap((section): [string, SlackMessage][] => [
      [`card of ${section}`, renderBlocks(report, { section })],
      [`details of ${section}`, renderDetails(report, { section })],
    ]),
  ];
  for (const inc of incidents) {
    out.push([`outdated card (${inc.finding.id})`, renderOutdatedCard(card, { title: inc.finding.title })]);
    out.push([`parent of ${inc.finding.id}`, renderAlertParent(inc, { proposalIds: ids })]);
    const resolved: Incident = { ...inc, status: 'resolved', resolvedAt: inc.lastSeenAt };
    out.push([`resolved parent of ${inc.finding.id}`, renderAlertParent(resolved)]);
    out.push([`replies of ${inc.finding.id}`, renderAlertReply(inc, everyChange(inc))]);
  }
  return out;
}

describe('no raw ISO time in any message: absolute times are date tokens (mrkdwn) or short UTC times (plain_text)', () => {
  it.each(listScenarios().map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const { report, incidents } = await playScenario(s.scans);
    const raw = everyMessage(report, incidents).flatMap(([what, m]) =>
      textsOf(m)
        .map((t) => t.replace(DATE_TOKEN, ''))
        .filter((t) => ISO.test(t))
        .map((t) => `${what}: ${t.slice(Math.max(0, t.search(ISO) - 60), t.search(ISO) + 40)}`),
    );
    expect(raw).toEqual([]);
  });
});
