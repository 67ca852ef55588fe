import { describe, expect, it } from '@jest/globals';
import type { types } from '@slack/bolt';
import type { Incident } from '../../src/alerts/incident.js';
import { estimateLines } from '../../src/slack/render/estimate-lines.js';
import { renderAlertParent } from '../../src/slack/render/render-alert.js';
import { CARD_LINE_BUDGET, proposalKey, renderBlocks } from '../../src/slack/render/render-blocks.js';
import type { InPlaceChange } from '../../src/store/in-place-store.js';
import { playScenario } from '../support/play-scenario.js';
import { listScenarios } from '../support/scenarios.js';

/**
 * An alert parent on a 360 px phone takes one screen, 20 lines (the browser test measures the sandbox's
 * in Chromium), whatever its names, symptoms and fixes, with or without Prometheus alerts in its thread.
 */
const ALERT_LINE_BOUND = 20;
/** A report read later than its capture (a `dump:` cluster): the card says both times. */
const LATER = new Date('2025-03-01T10:00:00Z');
/** The line the bot adds under the card (handle-health-command.ts): it shares the screen. */
const FOOTER: types.KnownBlock = {
  type: 'context',
  elements: [{ type: 'mrkdwn', text: '/k8s-health prod-east asked by <@U0UMA>' }],
};

/** Every fix of every finding with a stored proposal: each becomes something to press, as in Slack. */
function everyFixAButton(
  findings: readonly { fingerprint: string; remediations: readonly unknown[] }[],
): Record<string, string> {
  return Object.fromEntries(findings.flatMap((f) => f.remediations.map((_, i) => [proposalKey(f, i), `p_${i}`])));
}

/** The text a reader sees in a message's blocks but its context lines (button values and block ids are not shown). */
function textOf(blocks: readonly types.KnownBlock[]): string {
  const out: string[] = [];
  const walk = (x: unknown, key = ''): void => {
    if (typeof x === 'string') {
      if (key === 'text') out.push(x);
    } else if (Array.isArray(x)) x.forEach((y) => walk(y, key));
    else if (x && typeof x === 'object')
      for (const [k, v] of Object.entries(x)) if (k !== 'value' && k !== 'block_id' && k !== 'url') walk(v, k);
  };
  walk(blocks.filter((b) => b.type !== 'context'));
  return out.join('\n');
}

/**
 * Every bundled scenario's answer card and alert parents, held to one phone screen without a browser:
 * estimate-lines.ts counts the lines the blocks take at 360 px (text wrapped word by word, button rows,
 * block margins), as the sandbox page renders them in Chromium to a tenth of a line; the sandbox's
 * browser test measures the real height of the live scenario's messages.
 */
describe('one phone screen, for every bundled scenario', () => {
  const scenarios = listScenarios();

  it('covers the scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    // Read later, the card also says when it was scanned and when its data was captured.
    const later = (await playScenario(s.scans, LATER)).report;
    const laterCard = renderBlocks(later, { now: LATER, proposalIds: everyFixAButton(later.findings) });
    expect(estimateLines([...laterCard.blocks, FOOTER])).toBeLessThanOrEqual(CARD_LINE_BUDGET);
    const { report, incidents } = await playScenario(s.scans);
    const card = renderBlocks(report, { proposalIds: everyFixAButton(report.findings) });
    const blocks = card.blocks as types.KnownBlock[];
    expect(estimateLines([...blocks, FOOTER])).toBeLessThanOrEqual(CARD_LINE_BUDGET);
    // No finding id or fingerprint outside a context line.
    for (const f of report.findings) {
      expect(textOf(blocks)).not.toContain(`\`${f.id}\``);
      expect(textOf(blocks)).not.toContain(f.fingerprint);
    }
    for (const inc of incidents) {
      const parent = renderAlertParent(inc, { proposalIds: everyFixAButton([inc.finding]) });
      const pb = parent.blocks as types.KnownBlock[];
      expect(estimateLines(pb)).toBeLessThanOrEqual(ALERT_LINE_BOUND);
      // With Prometheus alerts in its thread, "Silence all alerts" joins the parent's row of buttons as one overflow
      // menu: not a line more than the parent without it.
      const prometheus = { total: 5, resolved: 1 };
      const withAlerts = (silence: boolean) =>
        renderAlertParent(inc, {
          proposalIds: everyFixAButton([inc.finding]),
          prometheus: { ...prometheus, ...(silence ? { silence: { threadTs: '1700000000.000100' } } : {}) },
        }).blocks as types.KnownBlock[];
      const silenced = withAlerts(true);
      expect(JSON.stringify(silenced)).toContain('"action_id":"k8s-health.alertmanager.silence-all"');
      expect(estimateLines(silenced)).toBe(estimateLines(withAlerts(false)));
      // Tallied on the parent in one short line, and still one screen.
      expect(estimateLines(silenced)).toBeLessThanOrEqual(ALERT_LINE_BOUND);
      expect(textOf(silenced)).toContain(':bell: 1/5 Prometheus alerts resolved');
      for (const blocks of [pb, silenced]) {
        // Never cut to fit: what is wrong (the header), since when, why, and the one fix button.
        const text = textOf(blocks);
        expect((blocks[0] as types.HeaderBlock).text.text).toMatch(/^prod-east: \S/);
        expect(text).toMatch(/ · since |\*Resolved\*/);
        if (inc.finding.cause || inc.finding.title.includes(' — ')) expect(text).toContain('*Why:* ');
        if (inc.status === 'open' && inc.finding.remediations.length > 0)
          expect(JSON.stringify(blocks)).toContain('"style":"primary"');
      }
      expect(textOf(pb)).not.toContain(inc.fingerprint);
      // Each fact once: the header's headline is not said again in the body.
      const head = (pb[0] as types.HeaderBlock).text.text.replace(/^prod-east: /, '');
      expect(textOf(pb.slice(1)).split(head).length - 1).toBe(0);
    }
  });
});

describe('a parent with a reversible fix still in place', () => {
  it('fits one screen, open or resolved: what is still in place, since when, that its backend is down, and its Undo', async () => {
    const s3 = listScenarios().find((s) => s.name === 's3-recreation-loop-webhook-down')!;
    const { incidents } = await playScenario(s3.scans);
    const open = incidents.find((i) => i.finding.id === 'webhook.unavailable-blocking')!;
    const webhook = open.finding.subject.name;
    const change: InPlaceChange = {
      requestId: 'r_1',
      cluster: 'prod-east',
      action: 'webhook.suspend',
      label: `Suspend webhook ${webhook}`,
      at: open.lastSeenAt,
      thread: { channel: 'C0ALERTS', threadTs: '1700000000.000100' },
      undo: {
        label: `Restore webhook ${webhook}`,
        risk: `${webhook} enforces its policy again: pods it refuses are refused again.`,
        proposalId: 'p_undo',
        fixKey: 'k',
      },
      backend: { namespace: 'kyverno', name: 'kyverno-svc' },
    };
    const inPlace = [{ change, backendDown: 'Pods of kyverno/kyverno-admission-controller crash' }];
    const resolved: Incident = { ...open, status: 'resolved', resolvedAt: open.lastSeenAt };
    // Open, its fix has run (its button is gone), someone is on it and it is snoozed: every button of the thread.
    const owned = { owner: { user: 'U0PAT', at: open.lastSeenAt }, snooze: { untilResolved: true, by: 'U0PAT' } };
    const alerted = { ...owned, prometheus: { total: 5, resolved: 1, silence: { threadTs: '1700000000.000100' } } };
    for (const [inc, opts] of [
      [resolved, {}],
      [open, {}],
      [open, owned],
      [open, alerted],
      [resolved, { prometheus: { total: 5, resolved: 5 } }],
    ] as const) {
      const blocks = renderAlertParent(inc, { ...opts, inPlace }).blocks as types.KnownBlock[];
      expect(estimateLines(blocks)).toBeLessThanOrEqual(ALERT_LINE_BOUND);
      const text = textOf(blocks);
      expect(text).toContain(':warning: *Still in place* since <!date^');
      expect(text).toContain(`Suspend webhook — *its backend is still down*.`);
      expect(text.split(webhook).length - 1).toBe(1);
      // One Undo, first in the parent's row, with an action id of its own in that row.
      const row = blocks.find((b): b is types.ActionsBlock => b.type === 'actions')!;
      const undo = row.elements[0] as types.Button;
      expect([undo.text.text, undo.value]).toEqual(['Undo', 'p_undo']);
      const ids = row.elements.map((e) => e.action_id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
