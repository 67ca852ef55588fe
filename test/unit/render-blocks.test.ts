import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/diagnose/finding.js';
import { proposalKey, renderBlocks } from '../../src/slack/render/render-blocks.js';
import type { Report } from '../../src/report/report.js';
import { clampBlocks, SLACK_LIMITS } from '../../src/slack/render/clamp-blocks.js';
import { PROPOSE_FIX_ACTION_PATTERN } from '../../src/slack/action-ids.js';
import { webhookDownFinding } from '../support/webhook-down-finding.js';
import { readFileSync } from 'node:fs';
import { FINDING_IDS } from '../../src/diagnose/finding.js';
import { DEFAULT_RUNBOOK_BASE_URL } from '../../src/config/config-schema.js';
import { DETAILS_ACTION_ID } from '../../src/slack/action-ids.js';
import { CARD_LINE_BUDGET, FOOTER_LINES, rootWhy } from '../../src/slack/render/render-blocks.js';
import { estimateLines } from '../../src/slack/render/estimate-lines.js';
import { renderDetails } from '../../src/slack/render/render-details.js';
import { headingAnchor, runbookUrl } from '../../src/slack/render/runbook-url.js';
import { cardLines, detailsButton, hasDetailsButton } from '../support/card-lines.js';
import { findInjections, linesOf } from '../support/inspect-slack-text.js';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

const webhookDown = webhookDownFinding;

const loop: Finding = {
  id: 'capi.recreation-loop',
  severity: 'warning',
  section: 'machines',
  title: 'Machines of MachineSet tkg-system/workers-abc are recreated again and again',
  subject: { kind: 'MachineSet', namespace: 'tkg-system', name: 'workers-abc' },
  evidence: ['4 replacements in 90m'],
  confidence: 'high',
  causedBy: ['fp-webhook'],
  remediations: [],
  fingerprint: 'fp-loop',
};

function report(findings: Finding[] = [webhookDown, loop]): Report {
  return {
    cluster: 'prod-east',
    generatedAt: '2025-03-01T10:00:40Z',
    collectedAt: '2025-03-01T10:00:00Z',
    status: 'critical',
    sections: [
      { id: 'nodes', status: 'degraded', summary: '4 of 5 nodes Ready' },
      { id: 'webhooks', status: 'critical', summary: '1 of 3 webhooks down' },
    ],
    findings,
    partial: [],
  };
}

const now = new Date('2025-03-01T10:00:40Z');
const allText = (blocks: AnyBlock[]) => JSON.stringify(blocks);

describe('renderBlocks: the answer card', () => {
  it('opens with the cluster, its state and the Details button, then one entry per root cause: what, since when, why, runbook, fix', () => {
    const { text, blocks } = renderBlocks(report(), { now });
    const b = blocks as AnyBlock[];
    expect(b[0]).toEqual({
      type: 'section',
      block_id: 'details',
      text: { type: 'mrkdwn', text: ':red_circle: *prod-east: critical*', verbatim: true },
      accessory: {
        type: 'button',
        action_id: DETAILS_ACTION_ID,
        text: { type: 'plain_text', text: 'Details' },
        value: 'prod-east',
      },
    });
    const card = cardLines(b);
    expect(card).toEqual([
      ':red_circle: *prod-east: critical*',
      // Scanned the moment it is answered: the scan time is the message's own (Details has it).
      ':red_circle: *Webhook kyverno-resource-validating-webhook-cfg is down and refuses pods* · since: unknown',
      `its service kyverno/kyverno-svc has no ready endpoints · <${DEFAULT_RUNBOOK_BASE_URL}/docs/diagnosis.md#webhookunavailable-blocking|runbook>`,
      ':wrench: Fix: Suspend webhook kyverno-resource-validating-webhook-cfg (propose it from Slack: two approvals before it runs)',
      '+1 symptom in Details',
    ]);
    // Planned with every fix a button, as the bot posts it (here, with no stored proposal, the fix is text).
    const posted = renderBlocks(report(), { now, proposalIds: { [proposalKey(webhookDown, 0)]: 'p_1' } });
    expect(estimateLines(posted.blocks)).toBeLessThanOrEqual(CARD_LINE_BUDGET - FOOTER_LINES);
    // The symptom (the loop), the sections and the finding ids are behind Details.
    expect(allText(b)).not.toContain('recreated again');
    expect(allText(b)).not.toContain('4 of 5 nodes Ready');
    expect(allText(b)).not.toContain('capi.recreation-loop');
    expect(hasDetailsButton(b)).toBe(true);
    const details = renderDetails(report(), { now }).blocks as AnyBlock[];
    expect(details[details.length - 1]).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'ids: webhook.unavailable-blocking, capi.recreation-loop', verbatim: true }],
    });
    expect(text).toBe(
      'prod-east: critical — 1 critical, 1 warning (scanned <!date^1740823240^{date_short_pretty} {time}|2025-03-01 10:00 UTC>)',
    );
    expect(allText(b)).not.toMatch(/ ago\b/);
  });

  it('says when it was scanned when that is not the moment of the answer: stale, or data captured at another time', () => {
    const stale = cardLines(renderBlocks(report(), { now, stale: true }).blocks as AnyBlock[]);
    expect(stale[1]).toBe(
      'scanned <!date^1740823240^{date_short_pretty} {time}|2025-03-01 10:00 UTC> · :hourglass_flowing_sand: *stale*, refreshing…',
    );
    const old = cardLines(
      renderBlocks({ ...report(), collectedAt: '2025-02-17T10:00:00Z' }, { now }).blocks as AnyBlock[],
    );
    expect(old[1]).toBe(
      'scanned <!date^1740823240^{date_short_pretty} {time}|2025-03-01 10:00 UTC> · data collected <!date^1739786400^{date_short_pretty} {time}|2025-02-17 10:00 UTC>',
    );
  });

  it('keeps a long headline and why within one screen: the why is cut at a clause first, then the headline; Details has both whole', () => {
    const long: Finding = {
      ...webhookDown,
      title: `Machine clusters/shop-prod-md-0-7d9f8-b5xkq deletion waits on pre-drain hook migrate-local-volumes (owner storage-migrator.storage-system) not removed (for 52m)`,
      cause: `Before draining, Cluster API waits until every pre-drain hook annotation is removed by the controller that set it, and ${'that controller '.repeat(12)}never did.`,
    };
    const posted = renderBlocks(report([long, loop]), { now, proposalIds: { [proposalKey(long, 0)]: 'p_1' } });
    expect(estimateLines(posted.blocks)).toBeLessThanOrEqual(CARD_LINE_BUDGET - FOOTER_LINES);
    const b = posted.blocks as AnyBlock[];
    // Here the headline, cut, takes the screen: the why is left to Details rather than cut to half a clause.
    const [, head] = cardLines(b);
    expect(head).toMatch(
      /^:red_circle: \*Machine clusters\/shop-prod-md-0-7d9f8-b5xkq deletion waits on [^*]*…\* · since: unknown( · <.*\|runbook>)?$/,
    );
    const details = allText(renderDetails(report([long, loop]), { now }).blocks as AnyBlock[]);
    expect(details).toContain('not removed (for 52m)');
    expect(details).toContain('never did.');
  });

  it('drops a "since <time>" the title restates and says any other time as a date token', () => {
    const paused: Finding = {
      ...webhookDown,
      title: 'MachineDeployment clusters/shop-prod-md-0 is paused since 2025-03-01T08:00:00Z',
      cause: 'spec.paused was set at 2025-03-01T07:59:00Z by someone',
      since: '2025-03-01T08:00:00Z',
    };
    const [, head, why] = cardLines(renderBlocks(report([paused]), { now }).blocks as AnyBlock[]);
    expect(head).toBe(
      ':red_circle: *MachineDeployment clusters/shop-prod-md-0 is paused* · since <!date^1740816000^{date_short_pretty} {time}|2025-03-01 08:00 UTC>',
    );
    expect(why).toMatch(
      /^spec\.paused was set at <!date\^1740815940\^\{date_short_pretty\} \{time\}\|2025-03-01 07:59 UTC> by someone · /,
    );
  });

  it("says since when: the finding's own start, else the first scan that saw it", () => {
    const own = renderBlocks(
      report([{ ...webhookDown, since: '2025-03-01T09:22:00Z', firstSeen: '2025-03-01T09:40:00Z' }]),
      { now },
    );
    expect(cardLines(own.blocks as AnyBlock[])[1]).toMatch(/ · since <!date\^1740820920\^[^>]*>$/);
    const first = renderBlocks(report([{ ...webhookDown, firstSeen: '2025-03-01T09:40:00Z' }]), { now });
    expect(cardLines(first.blocks as AnyBlock[])[1]).toMatch(/ · first seen <!date\^1740822000\^[^>]*>$/);
  });

  it("turns the root cause's one fix with an opaque id into a button whose value is only that id", () => {
    const { blocks } = renderBlocks(report(), { now, proposalIds: { [proposalKey(webhookDown, 0)]: 'p_opaque123' } });
    const actions = (blocks as AnyBlock[]).filter((x) => x.type === 'actions');
    expect(actions).toHaveLength(1);
    const button = actions[0]!.elements[0];
    expect(button.value).toBe('p_opaque123');
    expect(button.text.text).toBe('Suspend webhook kyverno-resource-validating-webhook-cfg');
    expect(button.action_id).toMatch(PROPOSE_FIX_ACTION_PATTERN);
    // The fix is said once: as the button, not again as text.
    expect(allText(blocks as AnyBlock[]).split('Suspend webhook kyverno-resource-validating-webhook-cfg')).toHaveLength(
      2,
    );
  });

  it('every fix is something to press: one button, the rest in one overflow menu, each with only its opaque id', () => {
    const four = {
      ...webhookDown,
      remediations: [0, 1, 2, 3].map((i) => ({ ...webhookDown.remediations[0]!, label: `Fix ${i}` })),
    };
    const ids = Object.fromEntries([0, 1, 2, 3].map((i) => [proposalKey(four, i), `p_fix${i}`]));
    const { blocks } = renderBlocks(report([four, loop]), { now, proposalIds: ids });
    const row = (blocks as AnyBlock[]).find((x) => x.type === 'actions' && x.block_id.startsWith('fix:'))!;
    // One button on a phone's width; the other fixes in the overflow menu beside it.
    expect(row.elements.map((e: AnyBlock) => e.type)).toEqual(['button', 'overflow']);
    expect(row.elements[0].value).toBe('p_fix0');
    expect(row.elements[1].options.map((o: AnyBlock) => [o.text.text, o.value])).toEqual([
      ['Fix 1', 'p_fix1'],
      ['Fix 2', 'p_fix2'],
      ['Fix 3', 'p_fix3'],
    ]);
    for (const e of row.elements) expect(e.action_id).toMatch(PROPOSE_FIX_ACTION_PATTERN);
  });

  it('a fix that already ran shows as done with its time, never as a button', () => {
    const { blocks } = renderBlocks(report(), {
      now,
      proposalIds: {},
      ranFixes: { [proposalKey(webhookDown, 0)]: '2025-03-01T10:05:00Z' },
    });
    expect((blocks as AnyBlock[]).filter((x) => x.type === 'actions')).toHaveLength(0);
    expect(allText(blocks as AnyBlock[])).toContain(
      ':white_check_mark: Suspend webhook kyverno-resource-validating-webhook-cfg ran <!date^1740823500^',
    );
    expect(allText(blocks as AnyBlock[])).not.toContain('propose it from Slack');
  });

  it('without proposal ids (check --output blocks) shows the fix as text, never as a button', () => {
    const { blocks } = renderBlocks(report(), { now });
    expect((blocks as AnyBlock[]).filter((x) => x.type === 'actions')).toEqual([]);
    expect(allText(blocks as AnyBlock[])).toContain(
      ':wrench: Fix: Suspend webhook kyverno-resource-validating-webhook-cfg',
    );
  });

  it('marks a stale report and adds a note, with no age in it', () => {
    const { text, blocks } = renderBlocks(report(), {
      now: new Date('2025-03-01T10:05:00Z'),
      stale: true,
      note: 'fresh scan failed',
    });
    expect(allText(blocks as AnyBlock[])).toContain('*stale*, refreshing');
    expect(allText(blocks as AnyBlock[])).toContain('fresh scan failed');
    expect(allText(blocks as AnyBlock[])).not.toMatch(/ ago\b/);
    expect(text).not.toMatch(/ ago\b/);
  });

  it('renders one section only: a root in it whose cause is elsewhere names that cause', () => {
    const { blocks } = renderBlocks(report(), { now, section: 'machines' });
    const b = blocks as AnyBlock[];
    expect(b[0]!.text.text).toBe(':white_circle: *prod-east · Cluster API machines: unknown*');
    expect(allText(b)).toContain('recreated again');
    expect(allText(b)).not.toContain('its service kyverno');
    // Named by its headline, cut to fit the screen.
    expect(allText(b)).toMatch(
      /caused by Webhook kyverno-resource-validating-webhook-cfg is down and( refuses pods|…) \(Webhooks\)/,
    );
    expect(detailsButton(b)!.value).toBe('prod-east machines');
  });

  it('says so when there are no problems', () => {
    const r = report([]);
    r.status = 'healthy';
    r.sections = [{ id: 'nodes', status: 'healthy', summary: '<all> 3 & ready' }];
    const { blocks } = renderBlocks(r, { now });
    expect(allText(blocks as AnyBlock[])).toContain(':white_check_mark: No problems found in 1 section.');
    expect(cardLines(blocks as AnyBlock[])).toHaveLength(2);
  });

  it('fits the line budget with many root causes and counts the rest in a correct "+N more" line', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({
      ...loop,
      causedBy: [],
      fingerprint: `fp-${i}`,
      subject: { ...loop.subject, name: `ms-${i}` },
    }));
    const { blocks } = renderBlocks(report(many), { now });
    const card = cardLines(blocks as AnyBlock[]);
    expect(estimateLines(blocks)).toBeLessThanOrEqual(CARD_LINE_BUDGET - FOOTER_LINES);
    const shown = card.filter((l) => l.includes('recreated again')).length;
    expect(shown).toBeGreaterThan(0);
    expect(card).toContain(`+${9 - shown} more root causes in Details`);
    // Exactly as many as exist: no "+N more" when all fit, and never "+0".
    expect(allText(renderBlocks(report([webhookDown]), { now }).blocks as AnyBlock[])).not.toContain('more root cause');
  });

  it('stays within Slack limits for a huge report', () => {
    const huge = Array.from({ length: 80 }, (_, i) => ({
      ...webhookDown,
      title: 'T'.repeat(5000),
      evidence: Array.from({ length: 10 }, () => 'e'.repeat(900)),
      remediations: Array.from({ length: 30 }, (_, j) => ({
        ...webhookDown.remediations[0]!,
        label: `L${j}`.repeat(60),
      })),
      fingerprint: `fp-${i}`,
    }));
    const ids: Record<string, string> = {};
    huge.forEach((f) => f.remediations.forEach((_, j) => (ids[proposalKey(f, j)] = `p_${f.fingerprint}_${j}`)));
    for (const render of [renderBlocks, renderDetails]) {
      const { text, blocks } = render(
        { ...report(huge), cluster: 'c'.repeat(200) },
        { now, proposalIds: ids, maxFindings: 80 },
      );
      const b = blocks as AnyBlock[];
      expect(b.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
      expect(JSON.stringify(b).length).toBeLessThanOrEqual(SLACK_LIMITS.messageChars);
      expect(b[0]!.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
      for (const x of b) {
        if (x.type === 'section') expect(x.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
        if (x.type === 'actions') {
          expect(x.elements.length).toBeLessThanOrEqual(SLACK_LIMITS.actionsElements);
          for (const e of x.elements)
            for (const t of e.type === 'overflow' ? e.options.map((o: AnyBlock) => o.text.text) : [e.text.text])
              expect(t.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonText);
        }
      }
      expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
    }
    // One root whose title and why are 5000 characters: both cut to fit the screen.
    expect(estimateLines(renderBlocks(report(huge), { now, proposalIds: ids }).blocks)).toBeLessThanOrEqual(
      CARD_LINE_BUDGET - FOOTER_LINES,
    );
  });
});

describe("rootWhy: a root cause's why in one sentence that reads on a phone", () => {
  const why = (cause: string, max?: number) => rootWhy({ ...webhookDown, cause }, max);
  it('keeps a short cause whole, ends a long one at its first sentence, then at a clause boundary', () => {
    expect(why('its service kyverno/kyverno-svc has no ready endpoints')).toBe(
      'its service kyverno/kyverno-svc has no ready endpoints',
    );
    expect(why('The CNI agent is not running on worker-1 right now. Check its pod and DaemonSet events.')).toBe(
      'The CNI agent is not running on worker-1 right now.',
    );
    const long = `${'a'.repeat(150)} has failurePolicy Fail, so the API server refuses every matching request including ${'b'.repeat(60)}`;
    expect(why(long)).toBe(`${'a'.repeat(150)} has failurePolicy Fail…`);
    expect(why(long).length).toBeLessThanOrEqual(220);
    expect(why('its service kyverno/kyverno-svc has no ready endpoints (its pod is in CrashLoopBackOff)', 70)).toBe(
      'its service kyverno/kyverno-svc has no ready endpoints…',
    );
    expect(why('anything', 0)).toBe('');
  });

  it('restates an age as of the scan, never "ago"', () => {
    expect(why('should have replaced it at 02:13 UTC (47m ago) but the Machine is still Running')).toBe(
      'should have replaced it at 02:13 UTC (47m before the scan) but the Machine is still Running',
    );
  });
});

describe('renderDetails: what the Details button shows', () => {
  it("has the sections, each root cause with its evidence and fixes, and its symptoms under it, without the card's why again", () => {
    const message = renderDetails(report(), {});
    const lines = linesOf(message);
    expect(lines).toContain('🟡 Nodes — degraded · 4 of 5 nodes Ready');
    expect(lines).toContain(
      '> DaemonSet kube-system/antrea-agent: failed calling webhook "validate.kyverno.svc": connect: connection refused (x14)',
    );
    expect(lines).toContain(
      '🔧 Fix: Suspend webhook kyverno-resource-validating-webhook-cfg — risk: policies are not enforced while suspended',
    );
    expect(lines).toContain('Symptoms of this cause (1):');
    expect(lines).toContain(
      '• ⚠️ Machines of MachineSet tkg-system/workers-abc are recreated again and again — since: unknown · runbook',
    );
    const t = allText(message.blocks as AnyBlock[]);
    expect(t).not.toContain('its service kyverno/kyverno-svc has no ready endpoints');
    expect(t).toContain(
      `{"type":"link","url":"${DEFAULT_RUNBOOK_BASE_URL}/docs/diagnosis.md#capirecreation-loop","text":"runbook"}`,
    );
    expect((message.blocks as AnyBlock[]).some((b) => b.type === 'actions')).toBe(false);
  });

  it('counts evidence beyond four lines correctly, and only when there is more', () => {
    const five = renderDetails(report([{ ...webhookDown, evidence: ['a', 'b', 'c', 'd', 'e'] }]), {});
    expect(linesOf(five)).toContain('> +1 more evidence line (k8s-health check lists them all)');
    const four = renderDetails(report([{ ...webhookDown, evidence: ['a', 'b', 'c', 'd'] }]), {});
    expect(allText(four.blocks as AnyBlock[])).not.toContain('more evidence');
  });
});

describe('renderDetails reads as sentences', () => {
  it('says times as date elements and "about" in words, with no look-alike characters', () => {
    const note: Finding = {
      ...loop,
      id: 'node.not-ready',
      severity: 'info',
      causedBy: [],
      fingerprint: 'fp-note',
      title: 'Node n1 NotReady for 10m: MachineHealthCheck will replace it at ~10:02 UTC',
      evidence: ['Machine m1 deleted at 2025-03-01T09:58:00Z'],
    };
    const message = renderDetails(report([webhookDown, loop, note]), { now });
    const text = allText(message.blocks as AnyBlock[]);
    expect(text).toContain('replace it at about 10:02 UTC');
    expect(text).toContain(
      '{"type":"text","text":"Machine m1 deleted at "},{"type":"date","timestamp":1740823080,"format":"{date_short_pretty} {time}","fallback":"2025-03-01 09:58 UTC"}',
    );
    expect(text).not.toMatch(/～|＊|\[:\]|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  it('shows cluster text as written in the S3 scenario — wildcards and URLs — as text Slack does not parse', async () => {
    const dir = 'examples/scenarios/s3-recreation-loop-webhook-down';
    const scanned = await scanSnapshot(await loadDump(dir, { cluster: 'prod-east' }), {
      history: new InMemoryHistory(),
      thresholds: DEFAULT_THRESHOLDS,
      generatedAt: new Date('2025-02-17T10:00:00Z'),
    });
    const message = renderDetails(scanned, {});
    const text = JSON.stringify(message);
    expect(text).not.toMatch(/＊|https\[:\]\/\/|～/);
    const lines = linesOf(message).join('\n');
    expect(lines).toContain('vmware-system-*, svc-tkg-*');
    expect(lines).toContain('Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s"');
    // Inert all the same: no element links, mentions or dates but ours.
    expect(findInjections(message)).toEqual([]);
  });
});

describe('runbookUrl', () => {
  it("links the finding's heading in docs/diagnosis.md as GitHub slugs it, on the configured base", () => {
    expect(runbookUrl('etcd.member-mismatch', 'https://git.example.com/sre/bot/blob/main/')).toBe(
      'https://git.example.com/sre/bot/blob/main/docs/diagnosis.md#etcdmember-mismatch',
    );
  });

  it('every finding id has its heading in docs/diagnosis.md, so every link resolves', () => {
    const headings = new Set(
      readFileSync('docs/diagnosis.md', 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => headingAnchor(l.replace(/^#+\s*/, ''))),
    );
    for (const id of FINDING_IDS) expect([id, headings.has(headingAnchor(id))]).toEqual([id, true]);
  });
});

describe('clampBlocks', () => {
  it('keeps a small message unchanged but for verbatim mrkdwn (no auto-linking by Slack)', () => {
    const msg = {
      text: 'hi',
      blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: 'hello' } }],
    };
    expect(clampBlocks(msg)).toEqual({
      text: 'hi',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hello', verbatim: true } }],
    });
  });

  it('replaces blocks past 50 with one "+N more" line', () => {
    const blocks = Array.from({ length: 60 }, (_, i) => ({
      type: 'section' as const,
      text: { type: 'mrkdwn' as const, text: `line ${i}` },
    }));
    const out = clampBlocks({ text: 'x', blocks }).blocks as AnyBlock[];
    expect(out).toHaveLength(50);
    expect(out[49]!.elements[0].text).toBe("+11 more (message shortened to fit Slack's limits)");
    expect(out[48]!.text.text).toBe('line 48');
  });

  it('cuts button values to 2000 and section texts to 3000', () => {
    const out = clampBlocks({
      text: 'x',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'a'.repeat(4000) } },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 'b'.repeat(100) },
              value: 'v'.repeat(3000),
            },
          ],
        },
      ],
    }).blocks as AnyBlock[];
    expect(out[0]!.text.text).toHaveLength(3000);
    expect(out[0]!.text.text.endsWith('…')).toBe(true);
    expect(out[1]!.elements[0].value).toHaveLength(2000);
    expect(out[1]!.elements[0].text.text).toHaveLength(75);
  });
});
