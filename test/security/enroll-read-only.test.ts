import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { capiCluster } from '../support/fleet-objects.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const NO_REDIS = 'redis://127.0.0.1:1';
const node = (name: string) =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: {} },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  }) as KubeObject;
const rbac = 'rbac.authorization.k8s.io/v1';
const wildcardRole = {
  apiVersion: rbac,
  kind: 'ClusterRole',
  metadata: { name: 'everything' },
  rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
} as unknown as KubeObject;
const bindTo = (name: string, role: string, sa: string) =>
  ({
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name: sa, namespace: 'kube-system' }],
  }) as unknown as KubeObject;
/** A token Secret under the reader's name that holds the token of another (all-powerful) ServiceAccount. */
const hijackedToken = {
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/service-account-token',
  metadata: {
    name: 'k8s-health-reader-token',
    namespace: 'kube-system',
    annotations: { 'kubernetes.io/service-account.name': 'ops-admin' },
  },
  data: { token: Buffer.from('ops-admin-token').toString('base64') },
} as unknown as KubeObject;

/**
 * `enroll` stores a credential only once it has proven it read-only: objects already in the cluster
 * under the reader's names are checked (a mismatch fails naming it, --replace recreates it), and the
 * credential's own SelfSubjectRulesReview (SelfSubjectAccessReview where that is incomplete) must show
 * reading and nothing else before the kubeconfig Secret is written in the management cluster.
 */
describe('enroll stores only a credential that proves it is read-only', () => {
  let mgmt: FakeKubeApi;
  let config: string;
  const clusters = ['hijack', 'badbind', 'extra', 'hidden', 'clean'];
  const members: Record<string, FakeKubeApi> = {};
  const admin: Record<string, string> = {};
  const env = () => ({ K8S_HEALTH_CONFIG: config, REDIS_URL: NO_REDIS });
  const stored = (name: string) => mgmt.find('Secret', `${name}-k8s-health-kubeconfig`, 'team-a');

  beforeAll(async () => {
    mgmt = await startFakeKubeApi({ accessKinds: true, objects: clusters.map((c) => capiCluster('team-a', c)) });
    const seed: Record<string, KubeObject[]> = {
      hijack: [wildcardRole, bindTo('ops-admin', 'everything', 'ops-admin'), hijackedToken],
      badbind: [wildcardRole, bindTo('k8s-health-reader', 'everything', 'k8s-health-reader')],
      extra: [wildcardRole, bindTo('sneaky', 'everything', 'k8s-health-reader')],
      hidden: [wildcardRole, bindTo('sneaky', 'everything', 'k8s-health-reader')],
      clean: [],
    };
    for (const c of clusters) {
      members[c] = await mgmt.addCluster(c, {
        accessKinds: true,
        rulesReviewIncomplete: c === 'hidden' || c === 'clean',
        objects: [node(`${c}-cp-1`), ...seed[c]!],
      });
      admin[c] = await writeTestKubeConfig(members[c]!.url, `${c}-admin`);
    }
    const work = mkdtempSync(path.join(tmpdir(), 'enroll-read-only-'));
    config = path.join(work, 'config.yaml');
    writeFileSync(
      config,
      [
        'fleets:',
        '  - name: lab',
        `    management: { kubeconfig: ${await writeTestKubeConfig(mgmt.url, 'mgmt')} }`,
        '    slack: { alertChannel: C0FLEET }',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await mgmt.close();
  });

  it('a token Secret of another ServiceAccount under the reader name fails enrollment naming it; --replace recreates it for the reader', async () => {
    const r = await runCliInProcess(['enroll', 'hijack', '--kubeconfig', admin.hijack!], env());
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/enrolled/);
    expect(r.stderr).toMatch(
      /token Secret kube-system\/k8s-health-reader-token already exists and holds the token of ServiceAccount ops-admin/,
    );
    expect(r.stderr).toMatch(/enroll hijack --replace/);
    expect(stored('hijack')).toBeUndefined();

    const again = await runCliInProcess(['enroll', 'hijack', '--kubeconfig', admin.hijack!, '--replace'], env());
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toMatch(
      /recreated token Secret kube-system\/k8s-health-reader-token \(it holds the token of ServiceAccount ops-admin\)/,
    );
    const secret = members.hijack!.find('Secret', 'k8s-health-reader-token', 'kube-system') as unknown as {
      metadata: { annotations: Record<string, string> };
      data: { token: string };
    };
    expect(secret.metadata.annotations['kubernetes.io/service-account.name']).toBe('k8s-health-reader');
    const kubeconfig = Buffer.from(
      (stored('hijack') as unknown as { data: { value: string } }).data.value,
      'base64',
    ).toString();
    expect(kubeconfig).not.toContain('ops-admin-token');
  });

  it('a binding under the reader name to another role fails enrollment naming it', async () => {
    const r = await runCliInProcess(['enroll', 'badbind', '--kubeconfig', admin.badbind!], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /ClusterRoleBinding k8s-health-reader already exists and binds ClusterRole everything, not ClusterRole k8s-health-reader/,
    );
    expect(stored('badbind')).toBeUndefined();
  });

  it('an extra binding that grants the reader a wildcard role fails the self rules review naming the permission; nothing is stored', async () => {
    const r = await runCliInProcess(['enroll', 'extra', '--kubeconfig', admin.extra!], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the reader credential is not read-only: it may \* \*\.\*/);
    expect(r.stderr).toMatch(/nothing was stored/);
    expect(stored('extra')).toBeUndefined();
    expect(mgmt.writes.filter((w) => w.name === 'extra-k8s-health-kubeconfig')).toEqual([]);
  });

  it('where the rules review is incomplete, access reviews per verb and resource find the extra permission', async () => {
    const r = await runCliInProcess(['enroll', 'hidden', '--kubeconfig', admin.hidden!], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /not read-only: it may create clusterrolebindings\.rbac\.authorization\.k8s\.io, .* and \d+ more; nothing was stored/,
    );
    expect(stored('hidden')).toBeUndefined();
    const asked = members.hidden!.requests.filter(
      (q) => q.path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    );
    expect(asked.length).toBeGreaterThan(10);
  });

  it('a read-only reader passes both reviews and is stored', async () => {
    const r = await runCliInProcess(['enroll', 'clean', '--kubeconfig', admin.clean!], env());
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(
      /checked: the credential's self reviews show get\/list\/watch on what the bot reads and nothing more/,
    );
    expect(stored('clean')).toBeDefined();
    // Enrolling again keeps every object: each was checked and matches.
    const again = await runCliInProcess(['enroll', 'clean', '--kubeconfig', admin.clean!], env());
    expect(again.code).toBe(0);
    expect(again.stdout.match(/^kept .*checked\)$/gm)).toHaveLength(4);
  });
});
