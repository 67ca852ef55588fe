import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { App } from '@slack/bolt';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../../src/config/config-schema.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { Report } from '../../../src/report/report.js';
import { scanSnapshot } from '../../../src/scan/scan-snapshot.js';
import { DETAILS_ACTION_ID, PROPOSE_FIX_ACTION_PATTERN } from '../../../src/slack/action-ids.js';
import { createMetrics } from '../../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../../src/slack/receive/create-slack-app.js';
import { registerListeners } from '../../../src/slack/register-listeners.js';
import { CARD_LINE_BUDGET, planCard, rootWhy } from '../../../src/slack/render/render-blocks.js';
import { estimateLines } from '../../../src/slack/render/estimate-lines.js';
import { createProposalStore } from '../../../src/store/proposal-store.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { InMemoryHistory } from '../../../src/store/in-memory-history.js';
import { captureLogs } from '../../support/capture-logs.js';
import { cardLines, cardState, detailsButton } from '../../support/card-lines.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { findInjections, linesOf } from '../../support/inspect-slack-text.js';
import { listScenarios } from '../../support/scenarios.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

/**
 * Proof: every bundled scenario (examples/scenarios, replays included, and the dumps of
 * test/fixtures/dumps) scanned as the bot scans it, stored, asked for with a signed `/k8s-health`
 * through the real Bolt HTTP receiver, and read back from the fake Slack as posted: the card fits its
 * line budget before the Details button, says each root cause's why once and offers each fix button
 * once, shows times as date tokens and no relative age (the message is edited after a rescan); the
 * Details button answers the clicker alone with the symptoms and evidence.
 */

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';
const CLUSTER = 'scenario';
const CHANNEL = 'C0INCIDENT';
const GENERATED = new Date('2025-03-01T10:00:00Z');

const config = parseConfig(
  { clusters: [{ name: CLUSTER, dump: './unused', slack: { channels: [CHANNEL] } }], scan: { freshSeconds: 3600 } },
  '/tmp',
);

/** Fixture dumps that are bad input by design (no report exists for them: load-dump's tests refuse them). */
const NOT_A_CAPTURE = new Set(['no-kubernetes-objects']);

/** Every bundled capture, as `check --from A [--from B]` would replay it. */
const CASES: { name: string; scans: string[] }[] = [
  ...listScenarios().map((s) => ({ name: `examples/scenarios/${s.name}`, scans: s.scans })),
  ...readdirSync('test/fixtures/dumps', { withFileTypes: true })
    .filter((e) => e.isDirectory() && !NOT_A_CAPTURE.has(e.name))
    .map((e) => ({ name: `test/fixtures/dumps/${e.name}`, scans: [path.join('test/fixtures/dumps', e.name)] })),
];

async function scan(scans: string[]): Promise<Report> {
  const history = new InMemoryHistory();
  let report: Report | undefined;
  for (const dir of scans)
    report = await scanSnapshot(await loadDump(dir, { cluster: CLUSTER }), {
      history,
      thresholds: DEFAULT_THRESHOLDS,
      generatedAt: GENERATED,
    });
  return report!;
}

let redisServer: RedisServer;
let redis: Redis;
let slack: FakeSlackApi;
let app: App;
let baseUrl: string;
const { log } = captureLogs();

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
  slack = await startFakeSlackApi({ validToken: TOKEN });
  const reports = createReportStore(redis, { keyPrefix: 'sc:', now: () => GENERATED });
  app = (await createSlackApp({ botToken: TOKEN, signingSecret: SECRET, apiUrl: slack.apiUrl, logLevel: 'error' })).app;
  registerListeners(app, {
    config,
    reports,
    proposals: createProposalStore(redis, { keyPrefix: 'sc:' }),
    requestScan: createScanRequester(async () => {
      throw new Error('no scan expected: the stored report is fresh');
    }, reports),
    metrics: createMetrics({ defaultMetrics: false }),
    now: () => GENERATED,
    log,
  });
  const server = (await app.start(0)) as Server;
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await app?.stop();
  redis?.disconnect();
  await slack?.close();
  await redisServer?.stop();
});

beforeEach(async () => {
  await redis.flushall();
  slack.calls.length = 0;
  slack.responses.length = 0;
  slack.messages.clear();
});

async function post(body: string): Promise<number> {
  const res = await fetch(`${baseUrl}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
    body,
  });
  await res.text();
  return res.status;
}

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('every bundled scenario through the real Bolt app into the fake Slack', () => {
  it('covers the scenarios and the fixture dumps', () => {
    expect(CASES.length).toBe(listScenarios().length + readdirSync('test/fixtures/dumps').length - NOT_A_CAPTURE.size);
    expect(CASES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const report = await scan(c.scans);
    await createReportStore(redis, { keyPrefix: 'sc:', now: () => GENERATED }).save(report);
    expect(
      await post(
        slashCommandBody({
          text: CLUSTER,
          channel_id: CHANNEL,
          user_id: 'U0ALICE',
          response_url: slack.responseUrl('cmd'),
        }),
      ),
    ).toBe(200);
    const [posted] = await slack.waitFor(
      'the answer',
      () => slack.callsTo('chat.postMessage').length > 0 && slack.callsTo('chat.postMessage'),
    );
    const blocks = posted!.body.blocks as AnyBlock[];
    const json = JSON.stringify(blocks);

    // Summary first: the state with Details beside it, then the card within one phone screen (who asked included).
    expect(cardState(blocks)).toBe(`${CLUSTER}: ${report.status}`);
    expect(detailsButton(blocks)).toBe(blocks[0]!.accessory);
    const card = cardLines(blocks);
    const lines = estimateLines(blocks as never);
    expect({ fits: lines <= CARD_LINE_BUDGET, lines, card }).toEqual({ fits: true, lines, card });

    // Each root cause on the card: its title and its why once in the whole message; every fix something to press.
    const plan = planCard(report, {});
    const texts = linesOf({ blocks }).join('\n');
    expect(plan.onCard.length).toBe(Math.min(plan.roots.length, plan.onCard.length));
    if (plan.roots.length > 0) expect(plan.onCard.length).toBeGreaterThan(0);
    for (const root of plan.onCard) {
      // Once per root: two roots of one kind (two nodes) may share their sentence, each says it once.
      // (A why the title already says entirely is not said again: nothing to count.)
      const shown = (f: typeof root) => rootWhy(f, plan.cuts.get(f.fingerprint)!.why);
      const why = shown(root);
      const sharing = plan.onCard.filter((f) => shown(f) === why).length;
      if (why) expect({ root: root.id, why: count(texts, why) }).toEqual({ root: root.id, why: sharing });
      expect(json).toContain(`/docs/diagnosis.md#${root.id.replace(/\./g, '')}|runbook>`);
    }
    // A button for the first fix of a root, the rest (up to five) in one overflow menu beside it.
    const elements = blocks
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements as AnyBlock[])
      .filter((e) => PROPOSE_FIX_ACTION_PATTERN.test(e.action_id));
    const buttons = elements.filter((e) => e.type === 'button');
    const inMenus = elements.filter((e) => e.type === 'overflow').flatMap((e) => e.options as AnyBlock[]);
    expect(buttons).toHaveLength(plan.onCard.reduce((n, f) => n + Math.min(1, f.remediations.length), 0));
    expect(inMenus).toHaveLength(
      plan.onCard.reduce((n, f) => n + Math.min(5, Math.max(0, f.remediations.length - 1)), 0),
    );
    expect(new Set(buttons.map((b) => b.text.text)).size).toBe(buttons.length);
    expect(new Set(buttons.map((b) => b.value)).size).toBe(buttons.length);
    for (const b of buttons) expect(count(json, `"text":"${b.text.text}"`)).toBe(1);
    // "+N more" only for N ≥ 1 that exist.
    const hidden = plan.roots.length - plan.onCard.length;
    const more = card.filter((l) => /\d+ more (root )?cause/.test(l));
    expect(more).toEqual(
      hidden > 0
        ? [
            expect.stringMatching(
              new RegExp(`^\\+(\\d+ symptoms?, ${hidden} more causes?|${hidden} more root causes?) in Details$`),
            ),
          ]
        : [],
    );

    // Time: the scan time as a date token (data captured earlier: the card says both); no relative age anywhere in a
    // message that is edited later.
    expect(card[1]).toContain('scanned <!date^1740823200^{date_short_pretty} {time}|2025-03-01 10:00 UTC>');
    expect(json).not.toMatch(/\b\d+[smhd]\S* ago\b/);
    expect(String(posted!.body.text)).not.toMatch(/ ago\b/);
    // No seed references in prose.
    expect(json).not.toMatch(/\bseed\s*S?\d/i);
    expect(findInjections(posted!.body, { mentions: ['U0ALICE'] })).toEqual([]);

    // Details, to the clicker only.
    const details = detailsButton(blocks)!;
    expect(
      await post(
        blockActionBody({
          actionId: DETAILS_ACTION_ID,
          blockId: 'details',
          value: details.value,
          channel_id: CHANNEL,
          response_url: slack.responseUrl('details'),
        }),
      ),
    ).toBe(200);
    const [reply] = await slack.waitFor(
      'details',
      () =>
        slack.responses.filter((r) => r.path === '/response/details').length > 0 &&
        slack.responses.filter((r) => r.path === '/response/details'),
    );
    expect(reply!.body.response_type).toBe('ephemeral');
    const dj = JSON.stringify(reply!.body.blocks);
    for (const s of report.sections) expect(dj).toContain(`— ${s.status} · `);
    for (const root of plan.roots) {
      for (const symptom of plan.symptomsOf.get(root.fingerprint) ?? [])
        expect(dj).toContain(`#${symptom.id.replace(/\./g, '')}","text":"runbook"}`);
    }
    expect(findInjections(reply!.body, { mentions: ['U0ALICE'] })).toEqual([]);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
  });
});
