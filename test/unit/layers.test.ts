import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Layers point one way (docs/architecture.md "Layers"): every import between two folders of
 * src/ must be an edge listed here. Type-only imports count too — a reader follows them all the same.
 * The order, bottom up: errors, text → log → config → cluster → diagnose → report → alerts →
 * alertmanager → approvals → store → timeline → scan → slack → jobs → compose → sandbox → cli. `compose/` is the
 * jobs side's composition shared by the roots (cli/run-serve.ts, cli/run-worker.ts, the sandbox's). `cluster/` is the
 * only reader of the outside world, `diagnose/` is pure, `report/` never imports `slack/`, `slack/` never imports
 * `jobs/`, and `approvals/` (`approvals/execute` is the only writer) imports no store, Slack or job code.
 */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  errors: [],
  text: [],
  log: ['text'],
  config: ['errors'],
  cluster: ['config', 'errors', 'log'],
  diagnose: ['cluster', 'config', 'errors'],
  report: ['cluster', 'diagnose', 'text'],
  alerts: ['diagnose', 'report', 'store', 'errors', 'log'],
  alertmanager: ['config', 'diagnose', 'report', 'errors', 'log'],
  approvals: ['cluster', 'config', 'diagnose', 'errors', 'log'],
  store: ['cluster', 'config', 'diagnose', 'report', 'approvals', 'errors', 'log'],
  timeline: ['alerts', 'diagnose', 'store', 'text'],
  scan: ['cluster', 'config', 'diagnose', 'report', 'store'],
  slack: [
    'alerts',
    'alertmanager',
    'config',
    'diagnose',
    'report',
    'approvals',
    'store',
    'timeline',
    'errors',
    'log',
    'text',
  ],
  jobs: [
    'alerts',
    'alertmanager',
    'cluster',
    'config',
    'diagnose',
    'report',
    'approvals',
    'scan',
    'slack',
    'store',
    'errors',
    'log',
    'text',
  ],
  compose: [
    'alerts',
    'alertmanager',
    'cluster',
    'config',
    'jobs',
    'approvals',
    'scan',
    'slack',
    'store',
    'errors',
    'log',
  ],
  sandbox: ['alertmanager', 'cluster', 'compose', 'config', 'approvals', 'slack', 'store', 'errors', 'log', 'text'],
  cli: [
    'alerts',
    'alertmanager',
    'cluster',
    'compose',
    'config',
    'diagnose',
    'report',
    'approvals',
    'sandbox',
    'scan',
    'slack',
    'jobs',
    'store',
    'timeline',
    'errors',
    'log',
    'text',
  ],
};

/** Every import of src/ that crosses folders: `from`, `to` (layers) and where. */
export function crossLayerImports(root = 'src'): { from: string; to: string; file: string; target: string }[] {
  const out: { from: string; to: string; file: string; target: string }[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
  const layerOf = (file: string) => path.relative(root, file).split(path.sep)[0]!;
  // Static imports and re-exports (type-only included) and dynamic import('…').
  const re = /(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const file of walk(root)) {
    for (const m of readFileSync(file, 'utf8').matchAll(re)) {
      const target = path.normalize(path.join(path.dirname(file), m[1] ?? m[2]!));
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to) out.push({ from, to, file, target });
    }
  }
  return out;
}

describe('layers', () => {
  const edges = crossLayerImports();

  it('src/ has exactly the folders the layer list names', () => {
    const folders = readdirSync('src', { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(Object.keys(ALLOWED).sort());
  });

  it('every import between folders is an allowed edge (none against the direction of data)', () => {
    const against = edges
      .filter((e) => !ALLOWED[e.from]?.includes(e.to))
      .map((e) => `${e.file} imports ${e.target} (${e.from} → ${e.to})`);
    expect(against).toEqual([]);
  });

  it('the allowed edges form no cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (layer: string, trail: string[]) => {
      if (done.has(layer)) return;
      if (visiting.has(layer)) return void cycles.push([...trail, layer].join(' → '));
      visiting.add(layer);
      for (const next of ALLOWED[layer] ?? []) visit(next, [...trail, layer]);
      visiting.delete(layer);
      done.add(layer);
    };
    for (const layer of Object.keys(ALLOWED)) visit(layer, []);
    expect(cycles).toEqual([]);
  });

  it('approvals/execute is the only writer: its send-kube.ts (every write to a cluster) is imported only inside approvals/', () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
      );
    const writer = path.join('src', 'approvals', 'execute', 'send-kube.js');
    const importers = walk('src').filter((f) =>
      [...readFileSync(f, 'utf8').matchAll(/from\s*['"](\.[^'"]+)['"]/g)].some(
        (m) => path.normalize(path.join(path.dirname(f), m[1]!)) === writer,
      ),
    );
    expect(importers.length).toBeGreaterThan(3);
    expect(importers.filter((f) => !f.startsWith(path.join('src', 'approvals') + path.sep))).toEqual([]);
  });

  it('workers never call the Slack Web API themselves: they post through slack/post/', () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    const calls = walk(path.join('src', 'jobs')).filter((f) =>
      /\.(chat|views|conversations|reactions)\.[a-zA-Z]+\(/.test(readFileSync(f, 'utf8')),
    );
    expect(calls).toEqual([]);
  });

  it('the walk sees the imports it checks (the test can fail)', () => {
    expect(edges.some((e) => e.from === 'jobs' && e.to === 'slack')).toBe(true);
    // A dynamic import(): check loads the logger only at LOG_LEVEL=debug.
    expect(
      edges.some((e) => e.file.endsWith('run-check.ts') && e.target.endsWith(path.join('log', 'create-logger.js'))),
    ).toBe(true);
    expect(edges.length).toBeGreaterThan(200);
  });
});
