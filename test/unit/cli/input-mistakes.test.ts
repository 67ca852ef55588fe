import { describe, expect, it } from '@jest/globals';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliInProcess } from '../../support/run-cli-in-process.js';

/** Input a user gets wrong, each answered with what was meant or one line naming what is wrong. */
const tmp = () => mkdtempSync(path.join(tmpdir(), 'k8s-health-input-'));
const REAL = path.resolve('test/fixtures/real');
const check = (args: string[], env: Record<string, string> = {}) => runCliInProcess(['check', ...args], env);

describe('check --from on what users actually pass', () => {
  it('a directory holding only etcd/ is read (etcd only), as is the etcd/ folder itself or etcdctl files at the top', async () => {
    const root = tmp();
    cpSync(path.join(REAL, 'etcd-docs-three-members-healthy/dump/etcd'), path.join(root, 'only-etcd/etcd'), {
      recursive: true,
    });
    cpSync(path.join(REAL, 'etcd-docs-three-members-healthy/dump/etcd'), path.join(root, 'flat'), { recursive: true });
    for (const dir of ['only-etcd', 'only-etcd/etcd', 'flat']) {
      const r = await check(['--from', path.join(root, dir), '--output', 'json']);
      expect(`${dir}: ${r.code} ${r.stderr}`).toBe(`${dir}: 0 `);
      const report = JSON.parse(r.stdout);
      expect(report.sections.find((s: { id: string }) => s.id === 'etcd').summary).toContain('3 members');
      expect(report.partial).toEqual([]);
    }
  });

  it('<name>/dump/ is reported as <name>, meta.json cluster first, then the one Cluster API Cluster', async () => {
    const root = tmp();
    const dump = path.join(root, 'prod-eu', 'dump');
    cpSync(path.join(REAL, 'etcd-docs-three-members-healthy/dump'), dump, { recursive: true });
    expect(JSON.parse((await check(['--from', dump, '-o', 'json'])).stdout).cluster).toBe('prod-eu');
    const capi = path.join(root, 'x', 'dump');
    // A capture of one Cluster API Cluster (cluster-foo) without meta.json: the Cluster names it.
    cpSync(
      path.join(REAL, 'argocd-pr25661-capi-v1.11-md-rollout-worker-waiting-for-providerid/dump/management'),
      path.join(capi, 'management'),
      { recursive: true },
    );
    expect(JSON.parse((await check(['--from', capi, '-o', 'json'])).stdout).cluster).toBe('cluster-foo');
    writeFileSync(path.join(dump, 'meta.json'), JSON.stringify({ cluster: 'from-meta' }));
    expect(JSON.parse((await check(['--from', dump, '-o', 'json'])).stdout).cluster).toBe('from-meta');
  });

  it('a directory of scan snapshots t00, t01, … is replayed in name order as repeated --from, with one note on stderr', async () => {
    const root = tmp();
    const src = path.join(REAL, 'capd-quickstart-cni-missing-remediation-churn');
    const scans = ['t0522', 't0527', 't0531'];
    for (const [i, t] of scans.entries())
      cpSync(path.join(src, t), path.join(root, 'series', `t0${i}-${t}`), { recursive: true });
    const series = await check(['--from', path.join(root, 'series'), '-o', 'json']);
    const repeated = await check([
      ...scans.flatMap((t) => ['--from', path.join(src, t)]),
      '--cluster',
      JSON.parse(series.stdout).cluster,
      '-o',
      'json',
    ]);
    expect(series.stderr.trim().split('\n')).toEqual([
      `k8s-health: ${path.join(root, 'series')} holds 3 scan snapshots (t00-t0522, t01-t0527, t02-t0531): replayed in name order, as repeated --from`,
    ]);
    const ids = (r: { stdout: string }) =>
      JSON.parse(r.stdout).findings.map((f: { id: string; subject: { name: string } }) => `${f.id} ${f.subject.name}`);
    expect(ids(series)).toEqual(ids(repeated));
    expect(series.code).toBe(repeated.code);
    // Snapshots without meta.json are named after the series, never after "t02".
    for (const t of ['t00', 't01']) {
      cpSync(path.join(REAL, 'etcd-docs-three-members-healthy/dump'), path.join(root, 'lab-7', t), { recursive: true });
    }
    expect(JSON.parse((await check(['--from', path.join(root, 'lab-7'), '-o', 'json'])).stdout).cluster).toBe('lab-7');
  });

  it('a truncated JSON file is named on stderr as well as under "Not read"', async () => {
    const root = tmp();
    const dump = path.join(root, 'cut');
    mkdirSync(dump);
    const nodes = readFileSync(
      path.join(REAL, 'sonobuoy-kind-worker-cni-uninitialized/dump/resources/cluster/core_v1_nodes.json'),
      'utf8',
    );
    writeFileSync(path.join(dump, 'nodes.json'), nodes);
    writeFileSync(path.join(dump, 'pods.json'), '{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"a"');
    const r = await check(['--from', dump]);
    expect(r.stderr).toMatch(
      new RegExp(
        `^k8s-health: ${path.join(dump, 'pods.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} not read: .+\\n$`,
      ),
    );
    expect(r.stdout).toMatch(/Not read[\s\S]*pods\.json/);
  });
});

describe('check on a configured cluster, and --version', () => {
  it('workload.kubeconfig naming a missing file: usage error naming the file, exit 2 (never "API server unreachable")', async () => {
    const root = tmp();
    const config = path.join(root, 'config.yaml');
    writeFileSync(config, 'clusters:\n  - name: lab\n    workload:\n      kubeconfig: ./kube/lab.yaml\n');
    const r = await check(['--config', config]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      `k8s-health: cluster "lab": workload.kubeconfig ${path.join(root, 'kube/lab.yaml')} does not exist (set in ${config})`,
    ]);
  });

  it('--version prints the package version', async () => {
    const r = await runCliInProcess(['--version'], {});
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
});
