/**
 * Fleet mode (docs/fleet.md): with rbac.fleetSecrets the worker — and only the worker — may read
 * Secrets (the enrolled kubeconfigs next to the Cluster objects), in the listed namespaces only or
 * cluster-wide; off by default. Checked with the real helm binary (scripts/fetch-helm.js).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { rulesBySubject } from './rbac-grants.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chartDir = join(root, 'helm');
const WORKER_SA = 'ops/khb-k8s-health-bot-worker';
let helmPath = '';

beforeAll(() => {
  // A missing helm is a loud failure with the reason, never a skip.
  const r = spawnSync(process.execPath, [join(root, 'scripts/fetch-helm.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/fetch-helm.js failed: ${r.stderr.trim() || r.error?.message}`);
  helmPath = r.stdout.trim();
}, 120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function render(sets: string[]): any[] {
  const args = [
    'template',
    'khb',
    chartDir,
    '--namespace',
    'ops',
    '-f',
    join(chartDir, 'ci', 'remediation-values.yaml'),
  ];
  for (const s of sets) args.push('--set', s);
  const r = spawnSync(helmPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr.trim()}`);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJS())
    .filter(Boolean);
}

const secretReaders = (ms: ReturnType<typeof render>) =>
  Object.entries(rulesBySubject(ms))
    .filter(([, rules]) => rules.some((r) => r.resources?.includes('secrets')))
    .map(([sa]) => sa);

describe('helm: fleet kubeconfig Secrets (rbac.fleetSecrets)', () => {
  it('grants no Secret to anyone by default', () => {
    expect(secretReaders(render([]))).toEqual([]);
  });

  it('grants the worker get/list/watch on Secrets in each listed namespace, with a Role each', () => {
    const ms = render(['rbac.fleetSecrets.enabled=true', 'rbac.fleetSecrets.namespaces={team-a,team-b}']);
    expect(secretReaders(ms)).toEqual([WORKER_SA]);
    const roles = ms.filter((m) => m.kind === 'Role' && m.metadata.name === 'khb-k8s-health-bot-fleet-secrets');
    expect(roles.map((r) => r.metadata.namespace)).toEqual(['team-a', 'team-b']);
    for (const r of roles)
      expect(r.rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }]);
    expect(ms.some((m) => m.kind === 'ClusterRole' && m.metadata.name === 'khb-k8s-health-bot-fleet-secrets')).toBe(
      false,
    );
  });

  it('grants them cluster-wide when no namespace is listed, still read-only and to the worker only', () => {
    const ms = render(['rbac.fleetSecrets.enabled=true']);
    expect(secretReaders(ms)).toEqual([WORKER_SA]);
    const role = ms.find((m) => m.kind === 'ClusterRole' && m.metadata.name === 'khb-k8s-health-bot-fleet-secrets');
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }]);
  });

  it('refuses a namespace that is not a namespace name (values.schema.json)', () => {
    const r = spawnSync(
      helmPath,
      [
        'template',
        'khb',
        chartDir,
        '--namespace',
        'ops',
        '-f',
        join(chartDir, 'ci', 'remediation-values.yaml'),
        '--set',
        'rbac.fleetSecrets.namespaces={Team_A}',
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/fleetSecrets/);
  });
});
