import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createAlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { configSchema } from '../../../src/config/config-schema.js';
import { incidentTimes } from '../../../src/slack/render/incident-times.js';
import { findRootCauses } from '../../../src/report/find-root-causes.js';
import type { Report } from '../../../src/report/report.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { createReplayCluster, randomPrefix, type ReplayCluster } from './replay-cluster.js';

const SCENARIOS = path.resolve('examples/scenarios');
const HEALTHY = path.join(SCENARIOS, 'benign-healthy');

/** A scenario's dumps in play order: its tNN snapshots, or the directory itself. */
function dumpsOf(dir: string): string[] {
  const snaps = readdirSync(dir)
    .filter((n) => /^t\d+$/.test(n))
    .sort();
  return snaps.length ? snaps.map((n) => path.join(dir, n)) : [dir];
}

function collectedAtOf(dump: string): string {
  return (JSON.parse(readFileSync(path.join(dump, 'meta.json'), 'utf8')) as { collectedAt: string }).collectedAt;
}

const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
const rootsOf = (r: Report) => {
  const alerting = r.findings.filter((f) => f.severity !== 'info');
  return alerting.filter((f) => findRootCauses(f, alerting).length === 0);
};

/**
 * One thread per root cause, played through the real scan and notify workers, real Redis and the fake Slack:
 * every bundled scenario is scanned as it unfolds (each snapshot, then the last one again 14 minutes
 * later), then fixed (three healthy scans). For each: never more threads than root causes, each
 * parent a short card with date tokens and no relative ages, symptoms listed and new ones replied,
 * and every thread resolved with "lasted <duration>" computed from the incident's own times.
 * Then remediation paused with unhealthy machines: a reminder every pausedReminderHours, no more.
 */
describe('alert threads over every bundled scenario (one thread per root cause)', () => {
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: FakeSlackApi;
  let workers: WorkerSet;
  const prefix = randomPrefix();
  const scenarios = readdirSync(SCENARIOS)
    .filter((n) => existsSync(path.join(SCENARIOS, n, 'expected.json')) && !n.startsWith('benign-'))
    .sort();
  const replays = new Map<string, ReplayCluster>();
  const channel = (i: number) => `C0SCN${String(i).padStart(2, '0')}`;
  /** Per scenario: alerting findings of the latest unfolding scan, and threads opened. */
  const counts = new Map<string, { alerting: number; threads: number }>();

  beforeAll(async () => {
    redisServer = await startRedis();
    redis = new Redis(redisServer.url);
    slack = await startFakeSlackApi();
    for (const s of scenarios) {
      const r = createReplayCluster();
      r.show(dumpsOf(path.join(SCENARIOS, s))[0]!);
      replays.set(s, r);
    }
    const config = configSchema.parse({
      clusters: scenarios.map((s, i) => ({ name: s, dump: replays.get(s)!.link, slack: { alertChannel: channel(i) } })),
      scan: { intervalSeconds: 3600, resolveAfterScans: 3 },
    });
    workers = await startJobs({
      config,
      redisUrl: redisServer.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 10,
    });
  });

  afterAll(async () => {
    await workers?.close();
    redis?.disconnect();
    await slack?.close();
    await redisServer?.stop();
    for (const r of replays.values()) r.cleanup();
  });

  it.each(scenarios.map((s, i) => [s, i] as const))('%s', async (scenario, i) => {
    const replay = replays.get(scenario)!;
    const ch = channel(i);
    const dumps = dumpsOf(path.join(SCENARIOS, scenario));
    const roots = new Set<string>();
    const posts = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === ch);
    const parents = () => posts().filter((c) => !c.body.thread_ts);
    let last = '';
    const scan = async (dump: string) => {
      replay.show(dump);
      const report = await workers.scan(scenario);
      for (const f of rootsOf(report)) roots.add(f.fingerprint);
      last = report.collectedAt;
      return report;
    };
    for (const d of dumps) await scan(d);
    const again = await scan(replay.derive(dumps.at(-1)!, at(collectedAtOf(dumps.at(-1)!), 14)));
    const states = createAlertStateStore(redis, { keyPrefix: `${prefix}:` });
    const open = Object.values((await states.load(scenario)).state.incidents).filter((inc) => inc.status === 'open');
    // One open thread per root cause of the latest scan, never more.
    expect(open.map((inc) => inc.fingerprint).sort()).toEqual(
      rootsOf(again)
        .map((f) => f.fingerprint)
        .sort(),
    );
    await slack.waitFor(
      `${scenario}: a parent per open incident`,
      () => parents().length >= open.length || undefined,
      20000,
    );
    expect(parents().length).toBeLessThanOrEqual(roots.size);
    counts.set(scenario, {
      alerting: again.findings.filter((f) => f.severity !== 'info').length,
      threads: parents().length,
    });
    // A scenario whose findings are all info (a pause with every machine healthy) opens no thread.
    if (roots.size === 0) {
      expect(parents()).toHaveLength(0);
      return;
    }

    for (const inc of open) {
      const symptoms = inc.symptoms ?? [];
      await slack.waitFor(`${scenario}: its parent lists its symptoms`, () => {
        const p = [...slack.messages.entries()].find(
          ([k, m]) => k.startsWith(`${ch}/`) && JSON.stringify(m.blocks).includes(`"alert:${inc.fingerprint}"`),
        );
        return p && (symptoms.length === 0 || JSON.stringify(p[1].blocks).includes(`*${symptoms.length} symptom`))
          ? p
          : undefined;
      });
    }
    for (const [key, m] of slack.messages) {
      if (!key.startsWith(`${ch}/`)) continue;
      const blocks = m.blocks as { type: string; text?: { text: string } }[] | undefined;
      const card = blocks?.find((b) => b.type === 'section')?.text?.text ?? '';
      if (!blocks?.some((b) => b.type === 'header')) continue;
      // The summary card fits one phone screen, times are date tokens, and an edited parent carries no age.
      expect(card.split('\n').length).toBeLessThanOrEqual(12);
      expect(card).toContain('<!date^');
      // (The why line is the analyzer's own prose, quoted: its wording is the answer card's concern.)
      expect(
        card
          .split('\n')
          .filter((l) => !l.startsWith('*Why:*'))
          .join('\n'),
      ).not.toMatch(/\b\d+[smhd] ago\b/);
    }
    // Symptoms that appeared after a thread opened were replied in it.
    const symptomReplies = Object.values((await states.load(scenario)).state.incidents).flatMap((inc) =>
      inc.changes.flatMap((c) => c.details.filter((d) => d.kind === 'related')),
    );
    if (symptomReplies.length > 0)
      await slack.waitFor(
        `${scenario}: the symptom replies`,
        () =>
          posts().some(
            (c) => c.body.thread_ts && String(JSON.stringify(c.body.blocks)).includes('New symptom of this root cause'),
          ) || undefined,
      );

    // Fixed: three healthy scans resolve every thread, each saying how long it lasted (computed).
    for (const m of [20, 21, 22]) await scan(replay.derive(HEALTHY, at(last, m)));
    const final = (await states.load(scenario)).state.incidents;
    for (const inc of Object.values(final)) {
      expect(inc.status).toBe('resolved');
      if (inc.mergedInto) continue;
      const lasted = incidentTimes(inc).lasted!;
      await slack.waitFor(`${scenario}: ${inc.finding.id} resolved, lasted ${lasted}`, () =>
        [...slack.messages.entries()].find(
          ([k, m]) =>
            k.startsWith(`${ch}/`) &&
            JSON.stringify(m.blocks).includes(`"alert:${inc.fingerprint}"`) &&
            JSON.stringify(m.blocks).includes(`· lasted ${lasted} (since <!date^`),
        ),
      );
      await slack.waitFor(`${scenario}: the resolution reply`, () =>
        posts().find((c) => c.body.thread_ts && JSON.stringify(c.body.blocks).includes(`; lasted ${lasted}.`)),
      );
    }
    // Never more parents than root causes, over the whole incident.
    expect(parents().length).toBeLessThanOrEqual(roots.size);
  });

  it("symptoms share their root cause's thread: fewer threads than alerting findings where causes are linked", () => {
    expect(counts.size).toBe(scenarios.length);
    // S3: the webhook outage is the root cause; the loop and the nodes it leaves behind are its symptoms.
    const s3 = counts.get('s3-recreation-loop-webhook-down')!;
    expect(s3.threads).toBeLessThan(s3.alerting);
    expect([...counts.values()].filter((c) => c.threads < c.alerting).length).toBeGreaterThan(1);
  });
});

describe('remediation paused: reminders in the thread', () => {
  let redisServer: RedisServer;
  let slack: FakeSlackApi;
  let workers: WorkerSet;
  let replay: ReplayCluster;
  const dir = path.join(SCENARIOS, 'remediation-paused-by-bot');

  /** The paused fixture with one worker Node NotReady: remediation paused while a machine is unhealthy (a warning). */
  function sick(minutes: number): string {
    const d = replay.derive(dir, at(collectedAtOf(dir), minutes));
    const file = path.join(d, 'nodes.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        "status: 'True'\n      reason: KubeletReady\n      message: kubelet is posting ready status",
        "status: 'False'\n      reason: KubeletNotReady\n      message: kubelet stopped posting node status",
      ),
    );
    return d;
  }

  beforeAll(async () => {
    redisServer = await startRedis();
    slack = await startFakeSlackApi();
    replay = createReplayCluster();
    replay.show(dir);
    const config = configSchema.parse({
      clusters: [{ name: 'shop-prod', dump: replay.link, slack: { alertChannel: 'C0PAUSED' } }],
      scan: { intervalSeconds: 3600, resolveAfterScans: 3, pausedReminderHours: 4 },
    });
    workers = await startJobs({
      config,
      redisUrl: redisServer.url,
      prefix: randomPrefix(),
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 10,
    });
  });

  afterAll(async () => {
    await workers?.close();
    await slack?.close();
    await redisServer?.stop();
    replay?.cleanup();
  });

  it('reminds at most every pausedReminderHours (4 h), naming how to resume', async () => {
    for (let h = 0; h <= 9; h++) {
      replay.show(sick(h * 60));
      const r = await workers.scan('shop-prod');
      expect(r.findings.find((f) => f.id === 'capi.remediation-paused')?.severity).toBe('warning');
    }
    const posts = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0PAUSED');
    const parent = await slack.waitFor('the paused thread', () =>
      posts().find(
        (c) => !c.body.thread_ts && JSON.stringify(c.body.blocks).includes('Remediation paused on MachineHealthCheck'),
      ),
    );
    const ts = (
      await slack.waitFor('its ts', () => [...slack.messages.entries()].find(([, m]) => m.text === parent.body.text))
    )[0].split('/')[1];
    // Scans at +0h … +9h: reminders at +4h and +8h, each naming the resume fix.
    const reminders = await slack.waitFor('two reminders', () => {
      const r = posts().filter(
        (c) => c.body.thread_ts === ts && JSON.stringify(c.body.blocks).includes('Remediation is still paused'),
      );
      return r.length >= 2 ? r : undefined;
    });
    expect(reminders).toHaveLength(2);
    for (const r of reminders)
      expect(JSON.stringify(r.body.blocks)).toContain('To resume once the cause is fixed: *Resume remediation');
    expect(reminders.map((r) => JSON.stringify(r.body.blocks).match(/scan of <!date\^(\d+)/)![1])).toEqual(
      [4, 8].map((h) => String(Date.parse(at(collectedAtOf(dir), h * 60)) / 1000)),
    );
  });
});
