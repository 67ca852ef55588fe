/**
 * The remediation worker's ServiceAccount is granted exactly what the ENABLED catalog actions declare,
 * derived from the catalog, never a second hand-kept list: each action declares every Kubernetes call
 * it sends (`rbac`, checked against the real requests in test/integration/remediate/), and everything
 * bound to that ServiceAccount — reads included, since it has no other role — must equal the union of
 * the enabled actions' declarations, no more, no less, per `remediation.actions` switch, with
 * `resourceNames` exactly where `remediation.resourceNames` pins them.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { KINDS } from '../../src/cluster/kinds.js';
import { ACTION_IDS } from '../../src/diagnose/finding.js';
import { ACTIONS } from '../../src/approvals/actions/index.js';
import type { CatalogActionId } from '../../src/approvals/remediation-plan.js';
import { addGrant, grantedVerb, ruleGrants, rulesBySubject, type Grants } from './rbac-grants.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chartDir = join(root, 'helm');
const REMEDIATE_SA = 'ops/khb-k8s-health-bot-remediate';

/** Which `remediation.actions` switch governs which catalog actions (docs/helm.md). */
const SWITCHES: Record<string, CatalogActionId[]> = {
  webhookSuspend: ['webhook.suspend', 'webhook.restore'],
  deploymentScale: ['deployment.scale'],
  nodeOutOfService: ['node.out-of-service', 'node.remove-out-of-service'],
  nodeDelete: ['node.delete'],
  podForceDelete: ['pod.force-delete'],
  machineDeletion: [
    'machine.skip-drain',
    'machine.wait-for-drain',
    'machine.skip-volume-detach',
    'machine.wait-for-volume-detach',
  ],
  remediationPause: ['mhc.pause-remediation', 'mhc.resume-remediation'],
};

/**
 * What `remediation.resourceNames.<key>` may pin: these resources, these verbs. `create` never
 * (RBAC cannot restrict it by name), nodes and pods never (their names are not known in advance).
 */
const PINNABLE: Record<string, { group: string; resources: string[]; verbs: string[] }> = {
  webhooks: {
    group: 'admissionregistration.k8s.io',
    resources: ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'],
    verbs: ['get', 'delete'],
  },
  deployments: { group: 'apps', resources: ['deployments'], verbs: ['get', 'patch'] },
};

let helmPath = '';

beforeAll(() => {
  // A missing helm is a loud failure with the reason, never a skip.
  const r = spawnSync(process.execPath, [join(root, 'scripts/fetch-helm.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/fetch-helm.js failed: ${r.stderr.trim() || r.error?.message}`);
  helmPath = r.stdout.trim();
}, 120_000);

/** `helm template` with ci/remediation-values.yaml and `sets`: the grants per ServiceAccount subject. */
function renderGrants(sets: string[] = []): Record<string, Grants> {
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
  const ms = parseAllDocuments(r.stdout)
    .map((d) => d.toJS())
    .filter(Boolean);
  return Object.fromEntries(Object.entries(rulesBySubject(ms)).map(([sa, rules]) => [sa, ruleGrants(rules)]));
}

/**
 * The union of what the given actions declare, with the pins applied and (capi=false) the management-cluster kinds left
 * out.
 */
function expectedGrants(
  actionIds: CatalogActionId[],
  opts: { pins?: Record<string, string[]>; capi?: boolean } = {},
): Grants {
  const management = new Set(KINDS.filter((k) => k.cluster === 'management').map((k) => `${k.group}/${k.plural}`));
  const out: Grants = {};
  for (const need of ACTIONS.filter((a) => actionIds.includes(a.id)).flatMap((a) => a.rbac)) {
    if (opts.capi === false && management.has(`${need.group}/${need.resource}`)) continue;
    for (const verb of need.verbs) {
      const pin = Object.entries(PINNABLE).find(
        ([key, p]) =>
          opts.pins?.[key]?.length &&
          p.group === need.group &&
          p.resources.includes(need.resource) &&
          p.verbs.includes(verb),
      );
      addGrant(out, need.group, need.resource, grantedVerb(verb, pin ? opts.pins![pin[0]] : undefined));
    }
  }
  return out;
}

const ALL = Object.values(SWITCHES).flat();

describe("the remediation worker's ServiceAccount is granted exactly what the enabled actions declare", () => {
  it('every catalog action is governed by one switch, or needs no Kubernetes RBAC (etcd)', () => {
    for (const a of ACTIONS) {
      if (a.id.startsWith('etcd.')) expect({ id: a.id, rbac: a.rbac }).toEqual({ id: a.id, rbac: [] });
      else expect(ALL).toContain(a.id);
    }
    expect(ACTIONS.map((a) => a.id).sort()).toEqual([...ACTION_IDS].sort());
  });

  it('with every action on: exactly the union of the declared calls, reads included', () => {
    const grants = renderGrants();
    expect(grants[REMEDIATE_SA]).toEqual(expectedGrants(ALL));
    // Nothing outside the catalog's declared verbs, and no watch (the worker reads objects by name).
    for (const verbs of Object.values(grants[REMEDIATE_SA]!))
      for (const v of verbs) expect(['get', 'list', 'create', 'patch', 'delete']).toContain(v);
  });

  it.each(Object.keys(SWITCHES))("with remediation.actions.%s=false: exactly the other actions' calls", (off) => {
    const on = Object.entries(SWITCHES)
      .filter(([k]) => k !== off)
      .flatMap(([, ids]) => ids);
    expect(renderGrants([`remediation.actions.${off}=false`])[REMEDIATE_SA]).toEqual(expectedGrants(on));
  });

  it('with only one action on, only its calls (each switch alone)', () => {
    for (const [only, ids] of Object.entries(SWITCHES)) {
      const sets = Object.keys(SWITCHES)
        .filter((k) => k !== only)
        .map((k) => `remediation.actions.${k}=false`);
      expect({ only, grants: renderGrants(sets)[REMEDIATE_SA] }).toEqual({ only, grants: expectedGrants(ids) });
    }
  });

  it('pins get/delete of webhooks and get/patch of Deployments to the listed names; create, nodes and pods stay unpinned', () => {
    const pins = {
      webhooks: ['kyverno-resource-validating-webhook-cfg', 'gatekeeper-validating-webhook-configuration'],
      deployments: ['kyverno-admission-controller'],
    };
    const grants = renderGrants([
      `remediation.resourceNames.webhooks={${pins.webhooks.join(',')}}`,
      `remediation.resourceNames.deployments={${pins.deployments.join(',')}}`,
    ]);
    expect(grants[REMEDIATE_SA]).toEqual(expectedGrants(ALL, { pins }));
    // Spelled out once, so a reader sees what pinning means.
    expect(grants[REMEDIATE_SA]!['admissionregistration.k8s.io/validatingwebhookconfigurations']).toEqual([
      'create',
      'delete[gatekeeper-validating-webhook-configuration,kyverno-resource-validating-webhook-cfg]',
      'get[gatekeeper-validating-webhook-configuration,kyverno-resource-validating-webhook-cfg]',
    ]);
    expect(grants[REMEDIATE_SA]!['apps/deployments']).toEqual([
      'get[kyverno-admission-controller]',
      'patch[kyverno-admission-controller]',
    ]);
    expect(grants[REMEDIATE_SA]!['/nodes']).toEqual(['delete', 'get', 'patch']);
  });

  it('leaves out the Machine read with rbac.capi=false (Machines are then read through the management kubeconfig)', () => {
    expect(renderGrants(['rbac.capi=false'])[REMEDIATE_SA]).toEqual(expectedGrants(ALL, { capi: false }));
    expect(
      Object.keys(renderGrants(['rbac.capi=false'])[REMEDIATE_SA]!).some((k) => k.startsWith('cluster.x-k8s.io/')),
    ).toBe(false);
  });
});
