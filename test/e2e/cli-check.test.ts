import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listScenarios } from '../support/scenarios.js';
import { cardLines, hasDetailsButton } from '../support/card-lines.js';
import { CARD_LINE_BUDGET, renderBlocks } from '../../src/slack/render/render-blocks.js';

/** Runs the built CLI exactly as a user does (`npm test` builds dist/ before jest runs). */
function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['bin/k8s-health.js', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 60000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const scenarios = listScenarios();
const critical = scenarios.find(
  (s) => s.scans.length === 1 && s.expected.findings.some((f) => f.severity === 'critical'),
)!;
const benign = scenarios.find((s) => s.name.startsWith('benign-') && s.scans.length === 1)!;

describe('k8s-health check (spawned CLI)', () => {
  it('prints a sectioned summary and exits 1 when a critical finding exists', () => {
    const r = cli(['check', '--from', critical.dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    for (const title of [
      'API server',
      'etcd',
      'Control plane',
      'Nodes',
      'Cluster API machines',
      'Webhooks',
      'Workloads',
    ])
      expect(r.stdout).toContain(title);
    expect(r.stdout).toContain('[CRITICAL]');
  });

  it('LOG_LEVEL=debug: stdout is exactly the report it always is; the debug lines are JSON on stderr', () => {
    const plain = cli(['check', '--from', critical.dir]);
    const debug = cli(['check', '--from', critical.dir], { LOG_LEVEL: 'debug' });
    expect(debug.code).toBe(plain.code);
    expect(debug.stdout).toBe(plain.stdout);
    expect(plain.stderr).toBe('');
    const records = debug.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.msg)).toEqual(['dump read', 'report built']);
    for (const r of records) expect(r).toMatchObject({ level: 'debug', process: 'check', time: expect.any(String) });
  });

  it('exits 0 on a benign dump', () => {
    const r = cli(['check', '--from', benign.dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('[CRITICAL]');
    expect(r.stdout).not.toContain('[WARNING]');
  });

  it('--output json follows the docs/design.md report shape', () => {
    const r = cli(['check', '--from', critical.dir, '--output', 'json']);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining(['cluster', 'generatedAt', 'status', 'sections', 'findings', 'partial']),
    );
    expect(report.status).toBe('critical');
    expect(report.sections.map((s: { id: string }) => s.id)).toEqual([
      'apiserver',
      'etcd',
      'controlplane',
      'nodes',
      'machines',
      'upgrades',
      'webhooks',
      'workloads',
    ]);
    for (const f of report.findings) expect(f.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('--output blocks prints Slack Block Kit: exactly the /k8s-health message (same renderer), card first', () => {
    const r = cli(['check', '--from', critical.dir, '--output', 'blocks']);
    const msg = JSON.parse(r.stdout);
    expect(typeof msg.text).toBe('string');
    expect(Array.isArray(msg.blocks)).toBe(true);
    expect(msg.blocks.length).toBeLessThanOrEqual(50);
    expect(msg.blocks[0].type).toBe('section');
    expect(cardLines(msg.blocks).length).toBeLessThanOrEqual(CARD_LINE_BUDGET);
    expect(hasDetailsButton(msg.blocks)).toBe(true);
    // The same report rendered by the bot's renderer gives the same message; only the scan time
    // (each run's own clock) differs.
    const report = JSON.parse(cli(['check', '--from', critical.dir, '--output', 'json']).stdout);
    const sameScanTime = (m: unknown) =>
      JSON.parse(JSON.stringify(m).replace(/scanned <!date\^\d+\^[^>]*>/g, 'scanned T'));
    expect(sameScanTime(msg)).toEqual(
      sameScanTime(renderBlocks({ ...report, collectedAt: report.collectedAt ?? '' }, {})),
    );
  });

  it('replays several --from dumps as successive scans', () => {
    const replay = scenarios.find((s) => s.scans.length > 1)!;
    const r = cli(['check', ...replay.scans.flatMap((d) => ['--from', d]), '--output', 'json']);
    const ids = JSON.parse(r.stdout).findings.map((f: { id: string }) => f.id);
    for (const f of replay.expected.findings) expect(ids).toContain(f.id);
  });

  it('bad input: exit 2 with one clear line', () => {
    const missing = cli(['check', '--from', '/nonexistent/dump']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('/nonexistent/dump');

    const empty = cli(['check', '--from', mkdtempSync(path.join(tmpdir(), 'empty-dump-'))]);
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim().split('\n')).toHaveLength(1);

    const badNow = cli(['check', '--from', critical.dir, '--now', 'yesterday']);
    expect(badNow.code).toBe(2);
    expect(badNow.stderr).toContain('--now must be an ISO time');

    const badOutput = cli(['check', '--from', critical.dir, '--output', 'xml']);
    expect(badOutput.code).toBe(2);
    expect(badOutput.stderr).toContain('xml');

    const noConfig = cli(['check', '--cluster', 'prod']);
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toContain('no config file');

    const unknownCluster = cli(['check', '--cluster', 'nope', '--config', 'config/example.yaml']);
    expect(unknownCluster.code).toBe(2);
    expect(unknownCluster.stderr).toContain('unknown cluster "nope"');
  });

  it('a capture of only OpenShift machine-api objects is read, not rejected: exit 0, unknown, the foreign kinds noted', () => {
    const r = cli([
      'check',
      '--from',
      'test/fixtures/real/openshift-machine-api-objects-not-capi/dump',
      '--output',
      'json',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const report = JSON.parse(r.stdout);
    expect([report.status, report.collectedAt, report.collectedAtFrom]).toEqual(['unknown', null, 'unknown']);
    expect(report.partial.map((p: { source: string }) => p.source)).toEqual([
      '1 Machine object(s) of machine.openshift.io/v1beta1',
      '1 MachineHealthCheck object(s) of machine.openshift.io/v1beta1',
    ]);
  });

  it('--now sets the analysis time', () => {
    const r = cli(['check', '--from', critical.dir, '--now', '2099-01-01T00:00:00Z', '--output', 'json']);
    expect([0, 1]).toContain(r.code);
    expect(JSON.parse(r.stdout).cluster).toBeTruthy();
  });

  it('check --cluster reads a dump-backed cluster from the config file', () => {
    const r = cli([
      'check',
      '--config',
      'config/example.yaml',
      '--cluster',
      'demo-recreation-loop',
      '--output',
      'json',
    ]);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).cluster).toBe('demo-recreation-loop');
  });

  it('--help lists every command', () => {
    const r = cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['check', 'dump', 'serve']) expect(r.stdout).toContain(c);
  });
});
