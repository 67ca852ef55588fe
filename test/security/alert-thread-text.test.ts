import { describe, expect, it } from '@jest/globals';
import { analyzeAlertChanges } from '../../src/alerts/analyze-alert-changes.js';
import type { Finding } from '../../src/diagnose/finding.js';
import type { Report } from '../../src/report/report.js';
import { timelineMessage } from '../../src/slack/handle/handle-alert-thread.js';
import { renderAlertParent, renderAlertReply } from '../../src/slack/render/render-alert.js';
import { renderAppHome } from '../../src/slack/render/render-app-home.js';
import { FORGED, HOSTILE_TEXTS } from '../support/hostile-text.js';
import { findInjections, linesOf } from '../support/inspect-slack-text.js';

/**
 * The message kinds of alert threads — the summary card with symptoms, owner and
 * snooze, symptom / merged / paused replies, the exported timeline, and the App Home — with a hostile
 * value in every field that comes from a cluster or from Redis: nothing active gets through (no
 * mentions but ours, no links, no forged lines), and a stored owner or snoozer that is not a user id
 * is shown as text, never as a mention.
 */
const T0 = '2025-03-01T10:00:00Z';
const T1 = '2025-03-01T10:05:00Z';
const T5 = '2025-03-01T15:05:00Z';

function finding(h: string, n: number, extra: Partial<Finding> = {}): Finding {
  return {
    id: 'webhook.unavailable-blocking',
    severity: 'critical',
    section: 'webhooks',
    title: `${h} title`,
    subject: { kind: 'ValidatingWebhookConfiguration', name: h },
    evidence: [`${h} evidence`],
    cause: `${h} cause. Second sentence ${h}`,
    since: T0,
    confidence: 'high',
    fingerprint: `fp-${n}`,
    remediations: [{ action: 'webhook.suspend', params: { name: h }, label: `${h} label`, risk: `${h} risk` }],
    ...extra,
  };
}

const report = (at: string, findings: Finding[]): Report => ({
  cluster: 'prod-east',
  generatedAt: at,
  collectedAt: at,
  status: 'critical',
  sections: [],
  findings,
  partial: [],
});

function expectInert(message: { text?: unknown; blocks?: unknown }, what: string, mentions: string[] = []): void {
  expect({ what, problems: findInjections(message, { mentions }) }).toEqual({ what, problems: [] });
  for (const line of linesOf(message))
    expect({ what, forged: line.trimStart().startsWith(FORGED) }).toEqual({ what, forged: false });
}

describe('alert thread messages with hostile values', () => {
  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))(
    'card, symptom, merged and paused replies (corpus #%i)',
    (_i, h) => {
      const root = finding(h, 0);
      const symptom = finding(`${h} symptom`, 1, {
        id: 'capi.recreation-loop',
        severity: 'warning',
        causedBy: ['fp-0'],
      });
      const paused = finding(`${h} paused`, 2, {
        id: 'capi.remediation-paused',
        severity: 'warning',
        causedBy: ['fp-0'],
        subject: { kind: 'MachineHealthCheck', namespace: h, name: h },
        remediations: [{ action: 'mhc.resume-remediation', params: {}, label: `${h} resume`, risk: h }],
      });
      const opts = { channel: 'C0ALERTS', resolveAfterScans: 1, flapWindowMinutes: 30, pausedReminderHours: 4 };
      // The symptom first had a thread of its own; its cause appears: merged, then a new symptom and a reminder.
      let s = analyzeAlertChanges({ seq: 0, incidents: {} }, report(T0, [symptom]), opts).state;
      s = analyzeAlertChanges(s, report(T0, [symptom, root]), opts).state;
      s = analyzeAlertChanges(s, report(T1, [symptom, root, paused]), opts).state;
      s = analyzeAlertChanges(s, report(T5, [symptom, root, paused]), opts).state;
      const inc = s.incidents['fp-0']!;
      const merged = s.incidents['fp-1']!;
      expect(inc.changes.flatMap((c) => c.kinds)).toEqual(expect.arrayContaining(['related', 'paused']));
      for (const c of inc.changes.filter((x) => !x.kinds.includes('opened')))
        expectInert(renderAlertReply(inc, c), `reply ${c.kinds.join(',')}`);
      expectInert(renderAlertReply(merged, merged.changes.at(-1)!), 'merged reply');
      expectInert(renderAlertParent(merged), 'merged parent');
      // A stored owner / snoozer is Redis data: a user id becomes our mention, anything else plain text.
      const parent = renderAlertParent(inc, {
        proposalIds: {},
        owner: { user: 'U0OWNER', at: T1 },
        snooze: { by: h, until: T5 },
      });
      expectInert(parent, 'parent with owner and snooze', ['U0OWNER']);
      expect(JSON.stringify(parent.blocks)).toContain('On it: <@U0OWNER>');
      expectInert(
        renderAlertParent(
          { ...inc, cluster: h },
          { owner: { user: h, at: h }, snooze: { by: 'U0SNOOZER', untilResolved: true } },
        ),
        'hostile cluster and owner',
        ['U0SNOOZER'],
      );
    },
  );

  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))('exported timeline and App Home (corpus #%i)', (_i, h) => {
    const markdown = `# Incident timeline: ${h}\n\n| ${h} |`;
    const exported = timelineMessage(h, markdown, 'U0ALICE');
    expectInert(exported, 'timeline reply', ['U0ALICE']);
    // The Markdown is verbatim in rich-text `text` elements (literal, never parsed as mrkdwn), whole.
    const rich = exported.blocks.filter((b) => b.type === 'rich_text') as unknown as {
      elements: { elements: { text: string }[] }[];
    }[];
    expect(rich.map((b) => b.elements[0]!.elements[0]!.text).join('')).toBe(markdown);
    const home = renderAppHome(
      'U0ALICE',
      [
        { name: h, report: report(T0, [finding(h, 0)]), waiting: [{ label: h, proposer: h, expiresAt: h }] },
        { name: 'lab', waiting: [{ label: 'x', proposer: 'U0BOB', expiresAt: T5 }] },
      ],
      T1,
    );
    expectInert(home, 'app home', ['U0ALICE', 'U0BOB']);
  });
});
