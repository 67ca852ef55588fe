import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DumpError } from '../../src/cluster/dump/dump-error.js';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import {
  parseEndpointHealth,
  parseEndpointStatus,
  parseMemberList,
} from '../../src/cluster/parse/parse-etcdctl-json.js';
import { parseObjectFile } from '../../src/cluster/dump/parse-object-file.js';
import { parseConfig } from '../../src/config/load-config.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { analyzeSnapshot } from '../../src/diagnose/analyze-snapshot.js';
import { ANALYZERS } from '../../src/diagnose/analyzers/index.js';
import type { Report } from '../../src/report/report.js';
import { createMetrics } from '../../src/slack/receive/create-metrics.js';
import { handleHealthCommand } from '../../src/slack/handle/handle-health-command.js';
import { parseCommand } from '../../src/slack/receive/parse-command.js';
import type { ProposalStore } from '../../src/store/proposal-store.js';
import type { SlackDeps } from '../../src/slack/slack-deps.js';
import type { StoredReport } from '../../src/store/report-store.js';
import { listScenarios } from '../support/scenarios.js';
import { recordFigure, scaled, SOAK, FUZZ_SEED } from './figures.js';
import { silentLogger } from '../../src/log/logger.js';

fc.configureGlobal({ seed: FUZZ_SEED });

/**
 * Bad input never crashes the bot: slash-command text into parseCommand and the whole
 * command handler, and dump files (truncated JSON, wrong kinds, huge strings, deep nesting, wrong
 * types, uint64 overflow in etcd ids) into loadDump. Interaction payloads are fuzzed over HTTP in
 * fuzz-interactions.test.ts. "Crash" = anything thrown that is not the documented, coded error.
 */
const config = parseConfig(
  {
    clusters: [
      { name: 'prod-east', dump: './x', slack: { channels: ['C0INCIDENT', 'C0ALERTS'] } },
      { name: 'prod-west', dump: './y', slack: { channels: ['C0WEST'] } },
      { name: 'lab', dump: './z' },
    ],
  },
  '/tmp',
);

/** Text as users (and pasted logs) produce it: unicode, control characters, mrkdwn, very long runs. */
const commandText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc
    .array(
      fc.constantFrom(
        'prod-east',
        'PROD-EAST',
        'lab',
        'help',
        'nodes',
        'etcd',
        '<@U1>',
        '`x`',
        '*',
        '\n',
        '\t',
        '  ',
        '<!channel>',
        '&amp;',
        'webhooks',
      ),
      { maxLength: 5 },
    )
    .map((w) => w.join(' ')),
  fc.constant('x'.repeat(100_000)),
  fc.constant(' '.repeat(10_000)),
);
const channelId = fc.oneof(
  fc.constantFrom('C0INCIDENT', 'C0WEST', 'C0ALERTS', 'D0DM', ''),
  fc.string({ maxLength: 12 }),
);

function healthyReport(cluster: string): Report {
  const at = new Date().toISOString();
  return {
    cluster,
    generatedAt: at,
    collectedAt: at,
    status: 'healthy',
    sections: [{ id: 'nodes', status: 'healthy', summary: '3 of 3 nodes Ready' }],
    findings: [],
    partial: [],
  };
}

describe(`fuzzed slash commands (seed ${FUZZ_SEED})`, () => {
  const nParse = scaled(4000);
  it(`${nParse} argument strings into parseCommand: 0 crashes, every error one clear line`, () => {
    let crashes = 0;
    fc.assert(
      fc.property(commandText, channelId, (text, channel) => {
        let parsed;
        try {
          parsed = parseCommand(text, { config, channelId: channel });
        } catch {
          crashes += 1;
          return;
        }
        expect(['help', 'report', 'error']).toContain(parsed.kind);
        if (parsed.kind === 'error') {
          // Short, one line, and user text quoted back without mrkdwn control characters.
          expect(parsed.message.length).toBeLessThan(600);
          expect(parsed.message).not.toMatch(/\n/);
          expect(parsed.message).not.toContain('<!channel>');
        }
      }),
      { numRuns: nParse },
    );
    recordFigure({ suite: 'fuzz', case: 'slash-command text → parseCommand', tried: nParse, bad: crashes });
    expect(crashes).toBe(0);
  });

  const nHandler = scaled(1000);
  it(`${nHandler} commands through the whole command handler: 0 crashes, acked exactly once each`, async () => {
    const stored = new Map<string, StoredReport>();
    let seq = 0;
    const proposals: ProposalStore = { save: async () => `p_${++seq}`, get: async () => undefined };
    const deps: SlackDeps = {
      config,
      reports: {
        save: async (report) => {
          const s = { report, storedAt: new Date().toISOString() };
          stored.set(report.cluster, s);
          return { ...s, saved: true };
        },
        latest: async (c) => stored.get(c),
      },
      proposals,
      requestScan: async (cluster) => ({ report: healthyReport(cluster), storedAt: new Date().toISOString() }),
      metrics: createMetrics({ defaultMetrics: false }),
      now: () => new Date(),
      log: silentLogger,
    };
    let crashes = 0;
    let errors = 0;
    await fc.assert(
      fc.asyncProperty(commandText, channelId, fc.string({ maxLength: 12 }), async (text, channel, user) => {
        let acks = 0;
        const client = {
          chat: {
            postMessage: async (m: { channel: string }) => ({ ok: true, channel: m.channel, ts: `1.${++seq}` }),
            update: async () => ({ ok: true }),
          },
        };
        const command = { text, channel_id: channel, user_id: user, command: '/k8s-health' };
        try {
          await handleHealthCommand(
            {
              command: command as never,
              ack: (async (r?: { text?: string }) => {
                acks += 1;
                if (r?.text !== undefined) expect(typeof r.text).toBe('string');
              }) as never,
              respond: (async () => {
                errors += 1;
              }) as never,
              client: client as never,
            },
            deps,
          );
        } catch {
          crashes += 1;
        }
        expect(acks).toBe(1);
      }),
      { numRuns: nHandler },
    );
    recordFigure({
      suite: 'fuzz',
      case: 'slash-command → whole handler',
      tried: nHandler,
      bad: crashes,
      note: `${errors} ephemeral error replies`,
    });
    expect(crashes).toBe(0);
  });
});

// ---------- dump files ----------

/** Real object files of the scenarios, to truncate and mutate (realistic shapes, not random bytes). */
const realFiles: { name: string; text: string }[] = [];
for (const s of listScenarios()) {
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(json|ya?ml)$/.test(e) && e !== 'expected.json' && e !== 'meta.json' && realFiles.length < 200)
        realFiles.push({ name: e, text: readFileSync(p, 'utf8') });
    }
  };
  walk(s.scans[0]!);
}

const deepJson = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepYaml = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n';
const uint64Overflow = fc.constantFrom(
  '18446744073709551616',
  '18446744073709551615',
  '99999999999999999999999999',
  '-1',
  '1e30',
  '3.5',
  '"abc"',
  '"18446744073709551616"',
  '0',
  'null',
  '[]',
);
const wrongType = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant('y'.repeat(50_000)),
);

type DumpFile = { path: string; text: string };
const dumpFile: fc.Arbitrary<DumpFile> = fc.oneof(
  // truncated JSON / YAML of a real file
  fc.tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })).map(([i, cut]) => {
    const f = realFiles[i % realFiles.length]!;
    return { path: f.name, text: f.text.slice(0, Math.floor(f.text.length * cut)) };
  }),
  // wrong kinds, wrong TypeMeta types
  fc
    .record({
      kind: fc.oneof(
        fc.constantFrom('Node', 'Pod', 'Machine', 'NodeList', 'List', 'Secret', ''),
        fc.string({ maxLength: 10 }),
        fc.integer(),
      ),
      apiVersion: fc.oneof(fc.constantFrom('v1', 'cluster.x-k8s.io/v1beta1', 'x/y/z'), fc.integer(), fc.constant(null)),
      name: fc.oneof(fc.string({ maxLength: 10 }), fc.integer()),
      items: fc.oneof(
        fc.constant(undefined),
        fc.constant('nope'),
        fc.array(fc.oneof(fc.constant(null), fc.integer(), fc.constant({})), { maxLength: 3 }),
      ),
    })
    .map((o) => ({
      path: 'objects.json',
      text: JSON.stringify({
        kind: o.kind,
        apiVersion: o.apiVersion,
        metadata: { name: o.name, namespace: 'default' },
        items: o.items,
      }),
    })),
  // huge strings
  fc.constantFrom('Node', 'Pod', 'Machine').map((kind) => ({
    path: `huge-${kind}.json`,
    text: JSON.stringify({
      kind,
      apiVersion: kind === 'Machine' ? 'cluster.x-k8s.io/v1beta1' : 'v1',
      metadata: { name: 'n'.repeat(100_000), annotations: { a: 'a'.repeat(300_000) } },
      status: { phase: 'p'.repeat(100_000) },
    }),
  })),
  // deep nesting
  fc.constantFrom(deepJson(5000), deepJson(20_000)).map((text) => ({ path: 'deep.json', text })),
  fc.constantFrom(deepYaml(200), '['.repeat(5000) + ']'.repeat(5000)).map((text) => ({ path: 'deep.yaml', text })),
  // wrong types in status (and spec) of real kinds
  fc
    .tuple(
      fc.constantFrom('Node', 'Pod', 'Machine', 'KubeadmControlPlane', 'MachineHealthCheck', 'VolumeAttachment'),
      wrongType,
      wrongType,
      wrongType,
    )
    .map(([kind, a, b, c]) => ({
      path: `${kind.toLowerCase()}-wrong.json`,
      text: JSON.stringify({
        kind,
        apiVersion:
          kind === 'Node' || kind === 'Pod'
            ? 'v1'
            : kind === 'VolumeAttachment'
              ? 'storage.k8s.io/v1'
              : kind === 'KubeadmControlPlane'
                ? 'controlplane.cluster.x-k8s.io/v1beta1'
                : 'cluster.x-k8s.io/v1beta1',
        metadata: { name: 'fuzz', namespace: 'default', labels: { 'node-role.kubernetes.io/control-plane': '' } },
        spec: { replicas: a, taints: b, nodeName: c, selector: { matchLabels: a } },
        status: {
          conditions: a,
          phase: b,
          containerStatuses: c,
          addresses: a,
          currentHealthy: b,
          expectedMachines: c,
          nodeRef: a,
        },
      }),
    })),
  // etcdctl JSON with overflowing / wrongly typed ids
  fc.tuple(uint64Overflow, uint64Overflow).map(([id, leader]) => ({
    path: 'etcd/member-list.json',
    text: `{"header":{"cluster_id":${id},"member_id":${id}},"members":[{"ID":${id},"name":"cp-1","peerURLs":["https://10.0.0.1:2380"],"clientURLs":["https://10.0.0.1:2379"]},{"ID":${leader},"name":"cp-2"}]}`,
  })),
  fc.tuple(uint64Overflow, uint64Overflow).map(([id, leader]) => ({
    path: 'etcd/endpoint-status.json',
    text: `[{"Endpoint":"https://10.0.0.1:2379","Status":{"header":{"member_id":${id}},"leader":${leader},"raftTerm":${id},"dbSize":${leader}}}]`,
  })),
  fc.json({ maxDepth: 4 }).map((text) => ({
    path: fc.sample(
      fc.constantFrom('etcd/endpoint-health.json', 'meta.json', 'x.json', 'etcd/member-list.json'),
      1,
    )[0]!,
    text,
  })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ path: 'garbage.yaml', text })),
);

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'k8s-health-fuzz-'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe(`fuzzed dump files (seed ${FUZZ_SEED})`, () => {
  const nDumps = scaled(1000);
  it(
    `${nDumps} dump directories into loadDump (+ analyze): 0 crashes, DumpError or named partial entries`,
    async () => {
      expect(realFiles.length).toBeGreaterThan(10);
      let crashes = 0;
      let dumpErrors = 0;
      let partialEntries = 0;
      let analyzerErrors = 0;
      let firstCrash = '';
      let seq = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(dumpFile, { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          async (files, withValidNode) => {
            const dir = path.join(root, `d${++seq}`);
            mkdirSync(path.join(dir, 'etcd'), { recursive: true });
            // Half the cases hold one valid object too, so loading goes past "no objects" and into analysis.
            if (withValidNode)
              writeFileSync(
                path.join(dir, 'ok-node.json'),
                JSON.stringify({
                  kind: 'Node',
                  apiVersion: 'v1',
                  metadata: { name: 'ok' },
                  status: { conditions: [{ type: 'Ready', status: 'True' }] },
                }),
              );
            for (const f of files) writeFileSync(path.join(dir, f.path), f.text);
            try {
              const snapshot = await loadDump(dir);
              partialEntries += snapshot.partial.length;
              for (const p of snapshot.partial) expect(p.source.length).toBeGreaterThan(0);
              const result = analyzeSnapshot(snapshot, ANALYZERS, {
                history: { scans: [] },
                thresholds: DEFAULT_THRESHOLDS,
                now: new Date(),
              });
              analyzerErrors += result.errors.length;
            } catch (err) {
              if (err instanceof DumpError && err.code === 'E_DUMP' && !err.message.includes('\n')) dumpErrors += 1;
              else {
                crashes += 1;
                firstCrash ||= err instanceof Error ? `${err.name}: ${err.message.slice(0, 300)}` : String(err);
              }
            } finally {
              rmSync(dir, { recursive: true, force: true });
            }
          },
        ),
        { numRuns: nDumps },
      );
      recordFigure({
        suite: 'fuzz',
        case: 'dump files → loadDump + analyze',
        tried: nDumps,
        bad: crashes + analyzerErrors,
        note: `${dumpErrors} DumpError, ${partialEntries} partial entries`,
      });
      expect(firstCrash).toBe('');
      expect(analyzerErrors).toBe(0);
    },
    60_000 * SOAK,
  ); // async: jest's timeout applies, and the soak runs ×SOAK as many dumps

  const nFiles = scaled(2500);
  it(`${nFiles} file texts into the object and etcdctl parsers: 0 crashes, an Error with a message or data`, () => {
    let crashes = 0;
    fc.assert(
      fc.property(dumpFile, (f) => {
        const parsers = f.path.startsWith('etcd/')
          ? [parseMemberList, parseEndpointStatus, parseEndpointHealth]
          : [(t: string) => parseObjectFile(t, f.path)];
        for (const parse of parsers) {
          try {
            parse(f.text);
          } catch (err) {
            // A parse error is expected for bad input; it must be an Error with a one-line message.
            if (!(err instanceof Error) || !err.message) crashes += 1;
          }
        }
        if (f.path === 'etcd/member-list.json') {
          try {
            for (const m of parseMemberList(f.text)) expect(BigInt(m.id) <= 0xffffffffffffffffn).toBe(true);
          } catch (err) {
            expect(err).toBeInstanceOf(Error);
          }
        }
      }),
      { numRuns: nFiles },
    );
    recordFigure({ suite: 'fuzz', case: 'file texts → parsers', tried: nFiles, bad: crashes });
    expect(crashes).toBe(0);
  });
});
