import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { snapshotFromDumpObjects } from '../../src/cluster/dump/load-dump.js';
import { readDumpObjects, type DumpObjects } from '../../src/cluster/dump/read-dump-objects.js';
import type { Snapshot } from '../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { analyzeSnapshot } from '../../src/diagnose/analyze-snapshot.js';
import { ANALYZERS } from '../../src/diagnose/analyzers/index.js';
import { buildReport } from '../../src/report/build-report.js';
import { renderBlocks } from '../../src/slack/render/render-blocks.js';
import { renderJson } from '../../src/report/render-json.js';
import { renderText } from '../../src/report/render-text.js';
import { listScenarios } from '../support/scenarios.js';
import { recordFigure, scaled, FUZZ_SEED } from './figures.js';

fc.configureGlobal({ seed: FUZZ_SEED });

/**
 * Analyzers on fuzzed snapshots: real scenario dumps whose objects get wrong types in status/spec/
 * metadata (numbers for strings, objects for arrays, null, huge strings, deep nesting), projected
 * through addToSnapshot as a dump or a live read would. etcd and /readyz state are typed by their
 * parsers (parse-etcdctl-json.ts, parse-readyz.ts), so wrong types there are fuzzed as files (fuzz-inputs). An analyzer
 * that throws is reported by the engine in `partial` (never sinks the report) — but each one is a bug: the test counts
 * and names them.
 */
const dumps: { name: string; raw: DumpObjects }[] = [];
for (const s of listScenarios())
  for (const dir of s.scans.slice(-1)) dumps.push({ name: s.name, raw: await readDumpObjects(dir) });

const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { nested: deep(depth - 1) });
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 20 }),
  fc.constant('x'.repeat(50_000)),
  fc.constant('18446744073709551616'),
  fc.constant(deep(500)),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), {
    maxKeys: 3,
    noNullPrototype: true,
  }),
  // ownerReferences-like entries with wrong field types (kind/name not strings, controller not a boolean).
  fc.array(
    fc.record(
      {
        kind: fc.oneof(
          fc.integer(),
          fc.constant(null),
          fc.constantFrom('MachineSet', 'KubeadmControlPlane', 'ReplicaSet'),
        ),
        name: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant([])),
        controller: fc.oneof(fc.boolean(), fc.string({ maxLength: 3 })),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 3 },
  ),
);

/** The metadata fields analyzers read; sanitizeMetadata (via addToSnapshot) must make any value of them safe. */
const METADATA_FIELDS = [
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'namespace',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'uid',
] as const;

/** Every path into an object (depth-limited), so a mutation can hit any field the analyzers read. */
function paths(
  value: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
  depth = 0,
): (string | number)[][] {
  if (depth > 8 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    const p = [...prefix, Array.isArray(value) ? Number(k) : k];
    out.push(p);
    paths(v, p, out, depth + 1);
  }
  return out;
}

function setPath(obj: unknown, p: (string | number)[], v: unknown): void {
  let cur = obj as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[p[p.length - 1]!] = v;
}

interface Case {
  dump: number;
  /**
   * `field` set: replace that metadata field (present or not); else a path into status/spec (or metadata, with
   * `inMetadata`).
   */
  mutations: {
    target: 'workload' | 'management';
    pick: number;
    path: number;
    value: unknown;
    field?: (typeof METADATA_FIELDS)[number];
    inMetadata?: boolean;
  }[];
}

const caseArb = (metadata: boolean): fc.Arbitrary<Case> =>
  fc.record({
    dump: fc.nat(),
    mutations: fc.array(
      fc.record({
        target: fc.constantFrom<'workload' | 'management'>('workload', 'management'),
        pick: fc.nat(),
        path: fc.nat(),
        value: wrongValue,
        ...(metadata
          ? { field: fc.option(fc.constantFrom(...METADATA_FIELDS), { nil: undefined }), inMetadata: fc.constant(true) }
          : {}),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  });

/** Apply a case to a deep copy of a scenario dump; return the snapshot built from it. */
function buildFuzzed(c: Case): Snapshot {
  const base = dumps[c.dump % dumps.length]!;
  const raw = structuredClone(base.raw);
  for (const m of c.mutations) {
    const holder = m.target === 'management' ? (raw.management ?? raw.workload) : raw.workload;
    const root = holder[m.pick % Math.max(1, holder.length)];
    if (!root) continue;
    if (m.field) {
      // Any metadata field, present or not: a dump file is hand-edited, truncated or corrupt.
      // (An earlier mutation may have replaced metadata itself: such an object is dropped by addToSnapshot.)
      if (!root.metadata || typeof root.metadata !== 'object') continue;
      setPath(root, ['metadata', m.field], structuredClone(m.value));
      continue;
    }
    // status and spec: what controllers and CRDs fill in; metadata (labels, annotations, ownerReferences…)
    // too in the metadata run: addToSnapshot sanitizes it at the snapshot boundary (sanitize-metadata.ts).
    const ps = paths(root).filter(
      (p) => p[0] === 'status' || p[0] === 'spec' || (m.inMetadata && p[0] === 'metadata' && p[1] !== 'name'),
    );
    // JSON data is never shared or circular
    if (ps.length) setPath(root, ps[m.path % ps.length]!, structuredClone(m.value));
  }
  // The same build as loadDump, on the mutated objects.
  return snapshotFromDumpObjects(raw, {
    cluster: base.name,
    collectedAt: raw.meta.collectedAt ?? '2025-01-01T00:00:00Z',
  });
}

const thrown = new Map<string, { count: number; example: string }>();
let crashes = 0;
let firstCrash = '';

afterAll(() => {
  if (thrown.size)
    process.stderr.write(
      `analyzers that threw on fuzzed snapshots:\n${[...thrown].map(([k, v]) => `  ${k}: ${v.count}× e.g. ${v.example}`).join('\n')}\n`,
    );
});

/** Run `n` fuzzed cases; returns crashes + analyzer errors (recorded as one figure). */
function fuzz(n: number, metadata: boolean): number {
  thrown.clear();
  crashes = 0;
  firstCrash = '';
  fc.assert(
    fc.property(caseArb(metadata), (c) => {
      try {
        const snapshot = buildFuzzed(c);
        const now = new Date(Date.parse(snapshot.collectedAt) || 0);
        const result = analyzeSnapshot(snapshot, ANALYZERS, {
          history: { scans: [] },
          thresholds: DEFAULT_THRESHOLDS,
          now,
        });
        for (const e of result.errors) {
          const t = thrown.get(e.source) ?? { count: 0, example: e.error.slice(0, 160) };
          t.count += 1;
          thrown.set(e.source, t);
        }
        const report = buildReport(snapshot, result, { generatedAt: now });
        renderText(report, { now });
        renderJson(report);
        renderBlocks(report, { now });
      } catch (err) {
        crashes += 1;
        firstCrash ||= err instanceof Error ? (err.stack ?? err.message) : String(err);
      }
    }),
    { numRuns: n },
  );
  return crashes + [...thrown.values()].reduce((a, t) => a + t.count, 0);
}

describe(`analyzers on fuzzed snapshots (seed ${FUZZ_SEED})`, () => {
  const n = scaled(2000);
  it(`${n} snapshots with wrong types in status/spec: 0 crashes, 0 analyzer errors`, () => {
    expect(dumps.length).toBeGreaterThan(5);
    const bad = fuzz(n, false);
    recordFigure({ suite: 'fuzz', case: 'analyzers on fuzzed snapshots', tried: n, bad });
    expect(firstCrash).toBe('');
    expect(Object.fromEntries([...thrown].map(([k, v]) => [k, v.example]))).toEqual({});
  });

  const m = scaled(1000);
  it(`${m} snapshots with wrong types in metadata (labels, annotations, ownerReferences…) and status/spec: 0 crashes, 0 analyzer errors`, () => {
    const bad = fuzz(m, true);
    recordFigure({ suite: 'fuzz', case: 'analyzers on fuzzed metadata', tried: m, bad });
    expect(firstCrash).toBe('');
    expect(Object.fromEntries([...thrown].map(([k, v]) => [k, v.example]))).toEqual({});
  });
});
