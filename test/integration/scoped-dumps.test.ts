import { describe, expect, it } from '@jest/globals';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import type { KubeObject, Snapshot } from '../../src/cluster/snapshot.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/**
 * search-dev (healthy), search-prod (etcd unhealthy) and search-qa (a Machine stuck provisioning) in namespace
 * `search`; meta.json: search-dev.
 */
const THREE = path.resolve('test/fixtures/dumps/three-clusters-one-namespace');

function names(s: Snapshot): string[] {
  return [
    ...(Object.values(s.capi) as KubeObject[][]).flatMap((a) => a.map((o) => o.metadata.name)),
    ...s.events.filter((e) => e.origin === 'management').map((e) => e.involvedObject.name ?? ''),
  ];
}
const only = (s: Snapshot, c: string) => names(s).every((n) => n === c || n.startsWith(`${c}-`));

/**
 * A copy of the fixture with meta.json's `cluster` removed (or set) and, optionally, one cluster's objects left out.
 */
function copy(opts: { metaCluster?: string; drop?: string[]; dirName?: string }): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'scoped-dump-')), opts.dirName ?? 'capture');
  cpSync(THREE, dir, { recursive: true });
  const meta = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  if (opts.metaCluster === undefined) delete meta.cluster;
  else meta.cluster = opts.metaCluster;
  writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta));
  if (opts.drop) {
    for (const f of ['management/capi.json', 'management/events.json']) {
      const list = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
      list.items = list.items.filter((o: object) => !opts.drop!.some((d) => JSON.stringify(o).includes(d)));
      writeFileSync(path.join(dir, f), JSON.stringify(list));
    }
  }
  return dir;
}

describe('a dump of a namespace holding several clusters is read as one of them', () => {
  it("three clusters: meta.json's cluster decides; --cluster picks another", async () => {
    const dev = await loadDump(THREE);
    expect(dev.capi.clusters.map((c) => c.metadata.name)).toEqual(['search-dev']);
    expect(only(dev, 'search-dev')).toBe(true);
    const qa = await loadDump(THREE, { cluster: 'search-qa' });
    expect(only(qa, 'search-qa')).toBe(true);
    expect(qa.capi.machines.map((m) => m.metadata.name)).toEqual([
      'search-qa-cp-a',
      'search-qa-md-0-x-1',
      'search-qa-md-0-x-2',
    ]);
  });

  it("check --from: the healthy cluster reports none of its neighbours' findings; each neighbour its own", async () => {
    const run = async (...args: string[]) =>
      JSON.parse((await runCliInProcess(['check', '--from', THREE, '-o', 'json', ...args], {})).stdout);
    const ids = (r: { findings: { id: string; subject: { name: string } }[] }) =>
      r.findings.map((f) => `${f.id} ${f.subject.name}`);
    const dev = await run();
    expect(ids(dev)).toEqual([]);
    expect(ids(await run('--cluster', 'search-prod'))).toEqual(['controlplane.etcd-unhealthy search-prod-cp']);
    expect(ids(await run('--cluster', 'search-qa'))).toContain('capi.machine-stuck-provisioning search-qa-md-0-x-2');
  });

  it('two clusters: each is read alone', async () => {
    const dir = copy({ metaCluster: 'search-prod', drop: ['search-qa'] });
    const prod = await loadDump(dir);
    expect(prod.capi.clusters.map((c) => c.metadata.name)).toEqual(['search-prod']);
    expect(only(prod, 'search-prod')).toBe(true);
    expect(only(await loadDump(dir, { cluster: 'search-dev' }), 'search-dev')).toBe(true);
  });

  it('several clusters and none named: one line listing them and how to name one', async () => {
    const dir = copy({ drop: ['search-qa'] });
    await expect(loadDump(dir)).rejects.toThrow(
      `dump ${dir}: the management side holds 2 Cluster API Clusters (search/search-dev, search/search-prod) and none is named: name it with --cluster NAME, meta.json "cluster", or management.clusterName of a dump cluster`,
    );
    const r = await runCliInProcess(['check', '--from', dir], {});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/holds 2 Cluster API Clusters \(search\/search-dev, search\/search-prod\)/);
  });

  it("one cluster left: it is the dump's, whatever the directory is called", async () => {
    const dir = copy({ drop: ['search-qa', 'search-prod'], dirName: 'dump' });
    const s = await loadDump(dir);
    expect(only(s, 'search-dev')).toBe(true);
    expect(s.capi.machines).toHaveLength(2);
  });
});
