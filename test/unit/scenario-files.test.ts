import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { ACTION_IDS, FINDING_IDS } from '../../src/diagnose/finding.js';

/**
 * Sanity of the scenario dumps under examples/scenarios/ WITHOUT the dump loader (written separately):
 * the files parse, etcd ids are bare uint64 numbers as etcdctl prints them, expected.json uses real
 * finding/action ids, and every expected subject exists in the dump, so analyzer tests built on these
 * fixtures fail for analyzer reasons, never because a fixture is malformed.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/scenarios');
const TWO_POW_53 = 2n ** 53n;
const UINT64_MAX = 2n ** 64n - 1n;
// kubectl cluster-info dump writes typed lists whose items carry no kind: infer it from the list kind.
const LIST_ITEM_KIND = (listKind: string | undefined) =>
  listKind && listKind !== 'List' && listKind.endsWith('List') ? listKind.slice(0, -4) : undefined;
const TIME_FIELDS = new Set([
  'creationTimestamp',
  'lastTransitionTime',
  'lastHeartbeatTime',
  'firstTimestamp',
  'lastTimestamp',
  'timeAdded',
  'startedAt',
  'finishedAt',
  'lastUpdated',
]);

interface Obj {
  kind?: string;
  apiVersion?: string;
  metadata?: { name?: string; namespace?: string };
  [k: string]: unknown;
}
interface Dump {
  dir: string;
  meta: { cluster: string; collectedAt: string; apiserver?: Record<string, unknown> };
  objects: Obj[];
  etcdMemberNames: string[];
}
interface Expected {
  seed: string | null;
  description: string;
  findings: { id: string; severity: string; subject: { kind: string; namespace?: string; name: string } }[];
  mustNotPropose: { action: string; params?: Record<string, unknown> }[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

function objectsOf(file: string): Obj[] {
  const text = readFileSync(file, 'utf8');
  const docs: unknown[] = file.endsWith('.json')
    ? [JSON.parse(text)]
    : parseAllDocuments(text).map((d) => {
        if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`);
        return d.toJS();
      });
  return docs.flatMap((doc) => {
    const o = doc as Obj & { items?: Obj[] };
    if (!o || typeof o !== 'object') return [];
    if (Array.isArray(o.items)) {
      const kind = LIST_ITEM_KIND(o.kind);
      return o.items.map((i) => (i.kind || !kind ? i : { ...i, kind }));
    }
    return [o];
  });
}

/** Every bare integer that follows an etcd id key; quoted ids are reported separately. */
function etcdIds(text: string): { bare: bigint[]; quoted: string[] } {
  const bare = [...text.matchAll(/"(?:ID|member_id|cluster_id|leader)":(\d+)/g)].map((m) => BigInt(m[1]!));
  const quoted = [...text.matchAll(/"(?:ID|member_id|cluster_id|leader)":"([^"]*)"/g)].map((m) => m[1]!);
  return { bare, quoted };
}

function readDump(dir: string): Dump {
  const meta = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  const objects: Obj[] = [];
  for (const f of walk(dir)) {
    const rel = path.relative(dir, f);
    if (rel === 'meta.json' || rel === 'expected.json' || rel.startsWith(`etcd${path.sep}`)) continue;
    if (/\.(json|ya?ml)$/.test(f)) objects.push(...objectsOf(f));
  }
  const memberFile = path.join(dir, 'etcd', 'member-list.json');
  const etcdMemberNames = existsSync(memberFile)
    ? [...readFileSync(memberFile, 'utf8').matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]!)
    : [];
  return { dir, meta, objects, etcdMemberNames };
}

/** A scenario is a dump directory (with meta.json) or a replay series whose subdirectories are dumps. */
const scenarios = readdirSync(ROOT)
  .filter((e) => statSync(path.join(ROOT, e)).isDirectory())
  .sort()
  .map((name) => {
    const dir = path.join(ROOT, name);
    const dumps = existsSync(path.join(dir, 'meta.json'))
      ? [dir]
      : readdirSync(dir)
          .filter((e) => statSync(path.join(dir, e)).isDirectory())
          .sort()
          .map((e) => path.join(dir, e));
    return { name, dir, dumps };
  });

function hasSubject(dump: Dump, s: Expected['findings'][number]['subject']): boolean {
  if (s.kind === 'Cluster' || s.kind === 'EtcdCluster')
    return s.name === dump.meta.cluster || dump.objects.some((o) => o.kind === s.kind && o.metadata?.name === s.name);
  if (s.kind === 'EtcdMember') return dump.etcdMemberNames.includes(s.name);
  // A namespace exists when the dump holds its Namespace object or any object in it (pods of a workload finding).
  if (s.kind === 'Namespace')
    return dump.objects.some(
      (o) => (o.kind === 'Namespace' && o.metadata?.name === s.name) || o.metadata?.namespace === s.name,
    );
  return dump.objects.some(
    (o) =>
      o.kind === s.kind &&
      o.metadata?.name === s.name &&
      (s.namespace === undefined || o.metadata?.namespace === s.namespace),
  );
}

function timesAfter(value: unknown, limit: number, at: string, out: string[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => timesAfter(v, limit, `${at}[${i}]`, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (TIME_FIELDS.has(k) && typeof v === 'string' && Date.parse(v) > limit) out.push(`${at}.${k}=${v}`);
      else timesAfter(v, limit, `${at}.${k}`, out);
    }
}

describe('examples/scenarios', () => {
  it('has the seed scenarios, the benign look-alikes and the replay series', () => {
    const names = scenarios.map((s) => s.name);
    for (const prefix of ['s0-', 's1-', 's2-', 's3-', 's4-', 'benign-', 'replay-'])
      expect(names.some((n) => n.startsWith(prefix))).toBe(true);
    expect(scenarios.find((s) => s.name.startsWith('replay-'))!.dumps.map((d) => path.basename(d))).toEqual([
      't00',
      't12',
      't24',
      't36',
    ]);
  });

  it('stays small (examples/ under 1.5 MB, no managedFields)', () => {
    const files = walk(path.resolve(ROOT, '..'));
    expect(files.reduce((n, f) => n + statSync(f).size, 0)).toBeLessThan(1.5 * 1024 * 1024);
    expect(files.filter((f) => readFileSync(f, 'utf8').includes('managedFields'))).toEqual([]);
  });

  it('lists every scenario in README.md', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(scenarios.filter((s) => !readme.includes(s.name)).map((s) => s.name)).toEqual([]);
  });

  describe.each(scenarios)('$name', ({ dir, dumps }) => {
    const expectedJson = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;

    it('has expected.json with valid finding ids, severities and actions', () => {
      expect(expectedJson.seed === null || /^\d{3}_[0-9a-f]{16}\.txt$/.test(expectedJson.seed)).toBe(true);
      expect(expectedJson.description.length).toBeGreaterThan(20);
      for (const f of expectedJson.findings) {
        expect(FINDING_IDS).toContain(f.id);
        expect(['critical', 'warning', 'info']).toContain(f.severity);
      }
      for (const p of expectedJson.mustNotPropose) expect(ACTION_IDS).toContain(p.action);
      if (path.basename(dir).startsWith('benign-'))
        expect(expectedJson.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    });

    it.each(dumps.map((d) => [path.relative(ROOT, d)]))('dump %s: meta.json and every JSON/YAML file parse', (rel) => {
      const d = path.join(ROOT, rel);
      const meta = JSON.parse(readFileSync(path.join(d, 'meta.json'), 'utf8'));
      expect(typeof meta.cluster).toBe('string');
      expect(Number.isNaN(Date.parse(meta.collectedAt))).toBe(false);
      if (meta.apiserver !== undefined) expect(typeof meta.apiserver.reachable).toBe('boolean');
      const files = walk(d).filter((f) => /\.(json|ya?ml)$/.test(f) && !f.includes(`${path.sep}etcd${path.sep}`));
      expect(files.length).toBeGreaterThan(1);
      for (const f of files) expect(() => objectsOf(f)).not.toThrow();
      const dump = readDump(d);
      expect(dump.objects.filter((o) => o.kind && typeof o.metadata?.name !== 'string').map((o) => o.kind)).toEqual([]);
    });

    it.each(dumps.map((d) => [path.relative(ROOT, d)]))('dump %s: timestamps are not after collectedAt', (rel) => {
      const dump = readDump(path.join(ROOT, rel));
      const late: string[] = [];
      dump.objects.forEach((o) =>
        timesAfter(o, Date.parse(dump.meta.collectedAt), `${o.kind}/${o.metadata?.name}`, late),
      );
      expect(late).toEqual([]);
    });

    const etcdFiles = dumps.flatMap((d) =>
      existsSync(path.join(d, 'etcd')) ? readdirSync(path.join(d, 'etcd')).map((f) => path.join(d, 'etcd', f)) : [],
    );
    if (etcdFiles.length) {
      it('etcd files are etcdctl JSON with bare uint64 ids above 2^53', () => {
        for (const f of etcdFiles) {
          const text = readFileSync(f, 'utf8');
          expect(() => JSON.parse(text)).not.toThrow();
          if (f.endsWith('endpoint-health.json')) continue; // health entries carry no ids
          const { bare, quoted } = etcdIds(text);
          expect(quoted).toEqual([]);
          expect(bare.length).toBeGreaterThan(0);
          for (const id of bare) {
            expect(id > TWO_POW_53).toBe(true);
            expect(id <= UINT64_MAX).toBe(true);
          }
        }
      });
    }

    it('every expected subject exists in the (last) dump', () => {
      const last = readDump(dumps[dumps.length - 1]!);
      expect(
        expectedJson.findings
          .filter((f) => !hasSubject(last, f.subject))
          .map((f) => `${f.id} ${JSON.stringify(f.subject)}`),
      ).toEqual([]);
    });
  });
});
