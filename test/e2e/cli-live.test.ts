import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';

/** Spawn the built CLI without blocking this process (the fake API servers live here). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/k8s-health.js', ...args], { env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * What must be equal between two reads of the same cluster. The dump also carries etcdctl output,
 * which a live read only gets from configured etcd endpoints (none here), so etcd is left out; the
 * live /readyz?verbose lists its checks where the dump's meta.json only says "ready", so the API
 * server section is compared by status.
 */
const essence = (json: string) => {
  const r = JSON.parse(json);
  const sections = r.sections
    .filter((s: { id: string }) => s.id !== 'etcd')
    .map((s: { id: string; status: string; summary: string }) =>
      s.id === 'apiserver' ? { id: s.id, status: s.status } : s,
    );
  return { status: r.status, sections, findings: r.findings };
};

// S3 lives in two clusters (workload + Supervisor), so it exercises both kubeconfig contexts.
const SCENARIO = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');

describe('live collection through the CLI: check --cluster, dump, check --from', () => {
  let workload: FakeKubeApi;
  let management: FakeKubeApi;
  let configFile: string;
  const work = mkdtempSync(path.join(tmpdir(), 'cli-live-'));

  beforeAll(async () => {
    workload = await startFakeKubeApi({ dir: SCENARIO, cluster: 'workload' });
    management = await startFakeKubeApi({ dir: SCENARIO, cluster: 'management' });
    const wk = await writeTestKubeConfig(workload.url, 'tkc-prod');
    const mk = await writeTestKubeConfig(management.url, 'supervisor');
    configFile = path.join(work, 'config.yaml');
    writeFileSync(
      configFile,
      [
        'clusters:',
        '  - name: tkc-prod',
        `    workload: { kubeconfig: ${wk}, context: tkc-prod }`,
        `    management: { kubeconfig: ${mk}, context: supervisor, namespace: ns-prod }`,
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await workload?.close();
    await management?.close();
  });

  it('check --cluster (live) gives the same report as check --from on the dump it was served from, and dump round-trips', async () => {
    const now = '2025-02-17T10:00:00Z'; // the scenario's collectedAt: same analysis time both ways
    const live = await cli([
      'check',
      '--config',
      configFile,
      '--cluster',
      'tkc-prod',
      '--now',
      now,
      '--output',
      'json',
    ]);
    expect(live.stderr).toBe('');
    expect(live.code).toBe(1);
    const fromScenario = await cli(['check', '--from', SCENARIO, '--cluster', 'tkc-prod', '--output', 'json']);
    expect(essence(live.stdout)).toEqual(essence(fromScenario.stdout));

    const out = path.join(work, 'dump');
    const dumped = await cli(['dump', '--config', configFile, '--cluster', 'tkc-prod', '--out', out]);
    expect(dumped.code).toBe(0);
    expect(dumped.stderr).toMatch(/^wrote tkc-prod to .*\(\d+ nodes, \d+ pods, \d+ machines, \d+ events\)\n$/);
    const reread = await cli(['check', '--from', out, '--now', now, '--output', 'json']);
    expect(essence(reread.stdout)).toEqual(essence(live.stdout));

    // Every list was read from the API server's watch cache (resourceVersion=0) and paginated.
    const lists = [...workload.requests, ...management.requests].filter((r) => r.method === 'GET' && r.query.limit);
    expect(lists.length).toBeGreaterThan(10);
    for (const r of lists) if (!r.query.continue) expect(r.query.resourceVersion).toBe('0');
  });

  it('an API server that is down gives a report that says so, not a crash', async () => {
    const cfg = path.join(work, 'down.yaml');
    const dead = await writeTestKubeConfig('http://127.0.0.1:9', 'dead');
    writeFileSync(
      cfg,
      ['clusters:', '  - name: dead', `    workload: { kubeconfig: ${dead}, context: dead }`].join('\n'),
    );
    const r = await cli(['check', '--config', cfg, '--output', 'json']);
    const report = JSON.parse(r.stdout);
    expect(report.findings.map((f: { id: string }) => f.id)).toContain('apiserver.unreachable');
    expect(report.partial.length).toBeGreaterThan(0);
    expect(r.code).toBe(1);
  });
});
