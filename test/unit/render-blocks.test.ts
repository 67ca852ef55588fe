import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/diagnose/finding.js';
import { proposalKey, renderBlocks } from '../../src/slack/render-blocks.js';
import type { Report } from '../../src/report/report.js';
import { clampBlocks, SLACK_LIMITS } from '../../src/slack/clamp-blocks.js';
import { PROPOSE_FIX_ACTION_PATTERN } from '../../src/slack/action-ids.js';
import { webhookDownFinding } from '../support/webhook-down-finding.js';

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

describe('renderBlocks', () => {
  it('shows the header with cluster and status, the age, one line per section and the worst findings', () => {
    const { text, blocks } = renderBlocks(report(), { now });
    const b = blocks as AnyBlock[];
    expect(b[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'prod-east: critical', emoji: true } });
    expect(allText(b)).toContain('as of 40s ago');
    expect(allText(b)).toContain('*Nodes* — degraded · 4 of 5 nodes Ready');
    expect(allText(b)).toContain('*Webhooks* — critical · 1 of 3 webhooks down');
    expect(allText(b)).toContain('*Cause:* its service kyverno/kyverno-svc has no ready endpoints');
    expect(allText(b)).toContain('connect: connection refused (x14)');
    expect(text).toBe('prod-east: critical — 1 critical, 1 warning (as of 40s ago)');
    // Critical before warning, as the report is sorted.
    expect(allText(b).indexOf('kyverno-resource-validating')).toBeLessThan(allText(b).indexOf('recreated again'));
  });

  it('turns proposals with an opaque id into buttons whose value is only that id', () => {
    const { blocks } = renderBlocks(report(), { now, proposalIds: { [proposalKey(webhookDown, 0)]: 'p_opaque123' } });
    const actions = (blocks as AnyBlock[]).filter((x) => x.type === 'actions');
    expect(actions).toHaveLength(1);
    const button = actions[0]!.elements[0];
    expect(button.value).toBe('p_opaque123');
    expect(button.text.text).toBe('Suspend webhook kyverno-resource-validating-webhook-cfg');
    expect(button.action_id).toMatch(PROPOSE_FIX_ACTION_PATTERN);
  });

  it('without proposal ids (check --output blocks) shows proposals as text, never as buttons', () => {
    const { blocks } = renderBlocks(report(), { now });
    expect((blocks as AnyBlock[]).some((x) => x.type === 'actions')).toBe(false);
    expect(allText(blocks as AnyBlock[])).toContain('Proposed fix: Suspend webhook kyverno-resource-validating-webhook-cfg');
  });

  it('marks a stale report and adds a note', () => {
    const { text, blocks } = renderBlocks(report(), { now: new Date('2025-03-01T10:05:00Z'), stale: true, note: 'fresh scan failed' });
    expect(allText(blocks as AnyBlock[])).toContain('as of 5m ago');
    expect(allText(blocks as AnyBlock[])).toContain('*stale*, refreshing');
    expect(allText(blocks as AnyBlock[])).toContain('fresh scan failed');
    expect(text).toContain('stale');
  });

  it('renders one section only', () => {
    const { blocks } = renderBlocks(report(), { now, section: 'machines' });
    const b = blocks as AnyBlock[];
    expect(b[0]!.text.text).toBe('prod-east · Cluster API machines: unknown');
    expect(allText(b)).toContain('recreated again');
    // Other sections' findings are not shown, but the root cause in another section is still named.
    expect(allText(b)).not.toContain('is down and refuses pods');
    expect(allText(b)).toContain('*Caused by:* webhook.unavailable-blocking (kyverno-resource-validating-webhook-cfg)');
  });

  it('says so when there are no findings, and escapes mrkdwn control characters', () => {
    const r = report([]);
    r.status = 'healthy';
    r.sections = [{ id: 'nodes', status: 'healthy', summary: '<all> 3 & ready' }];
    const { blocks } = renderBlocks(r, { now });
    expect(allText(blocks as AnyBlock[])).toContain('No findings.');
    expect(allText(blocks as AnyBlock[])).toContain('&lt;all&gt; 3 &amp; ready');
  });

  it('counts findings beyond the detailed ones in a "+N more" line', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ ...loop, fingerprint: `fp-${i}`, subject: { ...loop.subject, name: `ms-${i}` } }));
    const { blocks } = renderBlocks(report(many), { now });
    expect(allText(blocks as AnyBlock[])).toContain('+4 more findings');
  });

  it('stays within Slack limits for a huge report', () => {
    const huge = Array.from({ length: 80 }, (_, i) => ({
      ...webhookDown,
      title: 'T'.repeat(5000),
      evidence: Array.from({ length: 10 }, () => 'e'.repeat(900)),
      remediations: Array.from({ length: 30 }, (_, j) => ({ ...webhookDown.remediations[0]!, label: `L${j}`.repeat(60) })),
      fingerprint: `fp-${i}`,
    }));
    const ids: Record<string, string> = {};
    huge.forEach((f) => f.remediations.forEach((_, j) => (ids[proposalKey(f, j)] = `p_${f.fingerprint}_${j}`)));
    const { text, blocks } = renderBlocks({ ...report(huge), cluster: 'c'.repeat(200) }, { now, proposalIds: ids, maxFindings: 80 });
    const b = blocks as AnyBlock[];
    expect(b.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    expect(JSON.stringify(b).length).toBeLessThanOrEqual(SLACK_LIMITS.messageChars);
    expect(b[0]!.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    for (const x of b) {
      if (x.type === 'section') expect(x.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
      if (x.type === 'actions') {
        expect(x.elements.length).toBeLessThanOrEqual(SLACK_LIMITS.actionsElements);
        for (const e of x.elements) expect(e.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonText);
      }
    }
    expect(b[b.length - 1]!.elements[0].text).toMatch(/^\+\d+ more/);
    expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
  });
});

describe('clampBlocks', () => {
  it('keeps a small message unchanged but for verbatim mrkdwn (no auto-linking by Slack)', () => {
    const msg = { text: 'hi', blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: 'hello' } }] };
    expect(clampBlocks(msg)).toEqual({ text: 'hi', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hello', verbatim: true } }] });
  });

  it('replaces blocks past 50 with one "+N more" line', () => {
    const blocks = Array.from({ length: 60 }, (_, i) => ({ type: 'section' as const, text: { type: 'mrkdwn' as const, text: `line ${i}` } }));
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
        { type: 'actions', elements: [{ type: 'button', action_id: 'a', text: { type: 'plain_text', text: 'b'.repeat(100) }, value: 'v'.repeat(3000) }] },
      ],
    }).blocks as AnyBlock[];
    expect(out[0]!.text.text).toHaveLength(3000);
    expect(out[0]!.text.text.endsWith('…')).toBe(true);
    expect(out[1]!.elements[0].value).toHaveLength(2000);
    expect(out[1]!.elements[0].text.text).toHaveLength(75);
  });
});
