/**
 * The remediation ClusterRole is derived from the catalog, never a second hand-kept list: each action
 * declares every Kubernetes call it sends (`rbac`, checked against the real requests in
 * test/integration/remediate/), and the rendered role must grant exactly those calls that the read
 * ClusterRole does not already grant — no more, no less — per `rbac.remediation.actions` switch.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { ACTION_IDS } from '../../src/diagnose/finding.js';
import { ACTIONS } from '../../src/remediate/actions/index.js';
import type { CatalogActionId } from '../../src/remediate/remediation-plan.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chartDir = join(root, 'helm');

/** Which `rbac.remediation.actions` switch governs which catalog actions (docs/helm.md). */
const SWITCHES: Record<string, CatalogActionId[]> = {
  webhookSuspend: ['webhook.suspend', 'webhook.restore'],
  deploymentScale: ['deployment.scale'],
  nodeOutOfService: ['node.out-of-service', 'node.remove-out-of-service'],
  nodeDelete: ['node.delete'],
  podForceDelete: ['pod.force-delete'],
};

interface Rule { apiGroups?: string[]; resources?: string[]; verbs: string[] }
type Grants = Record<string, string[]>;

let helmPath = '';

beforeAll(() => {
  // A missing helm is a loud failure with the reason, never a skip.
  const r = spawnSync(process.execPath, [join(root, 'scripts/fetch-helm.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/fetch-helm.js failed: ${r.stderr.trim() || r.error?.message}`);
  helmPath = r.stdout.trim();
}, 120_000);

/** The rendered ClusterRoles of `helm template` with ci/remediation-values.yaml and `sets`, by name. */
function renderRoles(sets: string[] = []): Record<string, Rule[]> {
  const args = ['template', 'khb', chartDir, '--namespace', 'ops', '-f', join(chartDir, 'ci', 'remediation-values.yaml')];
  for (const s of sets) args.push('--set', s);
  const r = spawnSync(helmPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr.trim()}`);
  const roles: Record<string, Rule[]> = {};
  for (const d of parseAllDocuments(r.stdout)) {
    const m = d.toJS() as { kind?: string; metadata?: { name: string }; rules?: Rule[] } | null;
    if (m?.kind === 'ClusterRole') roles[m.metadata!.name] = m.rules ?? [];
  }
  return roles;
}

/** "group/resource" → sorted verbs. */
function grantsOf(rules: { group: string; resource: string; verbs: readonly string[] }[]): Grants {
  const out: Grants = {};
  for (const r of rules) out[`${r.group}/${r.resource}`] = [...new Set([...(out[`${r.group}/${r.resource}`] ?? []), ...r.verbs])].sort();
  return out;
}

function roleGrants(rules: Rule[]): Grants {
  return grantsOf(rules.flatMap((r) => (r.apiGroups ?? []).flatMap((group) => (r.resources ?? []).map((resource) => ({ group, resource, verbs: r.verbs })))));
}

/** What the given actions need that `read` does not grant. */
function expectedRemediateGrants(actionIds: CatalogActionId[], read: Grants): Grants {
  const needed = grantsOf(ACTIONS.filter((a) => actionIds.includes(a.id)).flatMap((a) => a.rbac));
  const out: Grants = {};
  for (const [key, verbs] of Object.entries(needed)) {
    const missing = verbs.filter((v) => !(read[key] ?? []).includes(v));
    if (missing.length) out[key] = missing;
  }
  return out;
}

describe('the remediation ClusterRole equals what the catalog actions declare', () => {
  it('every catalog action is governed by one switch, or needs no Kubernetes RBAC (etcd)', () => {
    const switched = Object.values(SWITCHES).flat();
    for (const a of ACTIONS) {
      if (a.id.startsWith('etcd.')) expect({ id: a.id, rbac: a.rbac }).toEqual({ id: a.id, rbac: [] });
      else expect(switched).toContain(a.id);
    }
    expect(ACTIONS.map((a) => a.id).sort()).toEqual([...ACTION_IDS].sort());
  });

  it('with every action on: exactly the declared calls minus the read role, and all declared calls granted', () => {
    const roles = renderRoles();
    const read = roleGrants(roles['khb-k8s-health-bot-read']!);
    const remediate = roleGrants(roles['khb-k8s-health-bot-remediate']!);
    expect(remediate).toEqual(expectedRemediateGrants(Object.values(SWITCHES).flat(), read));
    // Reads the actions need (backups, preconditions, Machines) come from the read role.
    for (const [key, verbs] of Object.entries(grantsOf(ACTIONS.flatMap((a) => a.rbac)))) {
      for (const v of verbs) expect(`${key} ${v}: ${[...(read[key] ?? []), ...(remediate[key] ?? [])].includes(v)}`).toBe(`${key} ${v}: true`);
    }
    // The remediation role only ever writes.
    for (const verbs of Object.values(remediate)) for (const v of verbs) expect(['create', 'patch', 'delete']).toContain(v);
  });

  it.each(Object.keys(SWITCHES))('with rbac.remediation.actions.%s=false: exactly the other actions\' calls', (off) => {
    const roles = renderRoles([`rbac.remediation.actions.${off}=false`]);
    const read = roleGrants(roles['khb-k8s-health-bot-read']!);
    const on = Object.entries(SWITCHES).filter(([k]) => k !== off).flatMap(([, ids]) => ids);
    expect(roleGrants(roles['khb-k8s-health-bot-remediate']!)).toEqual(expectedRemediateGrants(on, read));
  });
});
