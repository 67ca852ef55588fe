import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { createTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { capiCluster, kubeconfigSecret } from '../../support/fleet-objects.js';
import { runCliInProcess } from '../../support/run-cli-in-process.js';

const NO_REDIS = 'redis://127.0.0.1:1';
const node = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: {} },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

/**
 * One fake API server process: the management cluster at its root, two workload clusters under
 * /clusters/NAME. The CLI runs in this process, the real client-node talks to the fake over HTTP.
 */
describe('fleet CLI: clusters, check --cluster on a discovered cluster, enroll', () => {
  let mgmt: FakeKubeApi;
  let web: FakeKubeApi;
  let work: string;
  let config: string;
  let webAdmin: string;
  const env = () => ({ K8S_HEALTH_CONFIG: config, REDIS_URL: NO_REDIS });

  beforeAll(async () => {
    mgmt = await startFakeKubeApi({
      accessKinds: true,
      objects: [capiCluster('team-a', 'web'), capiCluster('team-b', 'api')],
    });
    web = await mgmt.addCluster('web', { accessKinds: true, objects: [node('web-cp-1'), node('web-md-1')] });
    work = mkdtempSync(path.join(tmpdir(), 'fleet-cli-'));
    const mk = await writeTestKubeConfig(mgmt.url, 'mgmt');
    webAdmin = await writeTestKubeConfig(web.url, 'web-admin');
    config = path.join(work, 'config.yaml');
    writeFileSync(
      config,
      [
        'fleets:',
        '  - name: lab',
        `    management: { kubeconfig: ${mk} }`,
        '    slack: { alertChannel: C0FLEET }',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await mgmt.close();
  });

  it('clusters -o json lists every discovered cluster, status unknown without Redis', async () => {
    const r = await runCliInProcess(['clusters', '-o', 'json'], env());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'api', fleet: 'lab', namespace: 'team-b', status: 'unknown', enrolled: false },
      { name: 'web', fleet: 'lab', namespace: 'team-a', status: 'unknown', enrolled: false },
    ]);
    expect(r.stderr).toMatch(/^k8s-health clusters: Redis not reachable at redis:\/\/127\.0\.0\.1:1/);
  });

  it('clusters as text: a table, management side only when not enrolled', async () => {
    const r = await runCliInProcess(['clusters'], env());
    expect(r.stdout.split('\n')[0]).toMatch(/^CLUSTER\s+STATUS\s+FLEET\s+NAMESPACE\s+WORKLOAD ACCESS$/);
    expect(r.stdout).toMatch(/^web\s+unknown\s+lab\s+team-a\s+management side only$/m);
  });

  it('check --cluster on a discovered, not enrolled cluster: management side only, the workload view said missing, never healthy', async () => {
    const r = await runCliInProcess(['check', '--cluster', 'web', '-o', 'json'], env());
    const report = JSON.parse(r.stdout);
    expect(report.cluster).toBe('web');
    const section = (id: string) => report.sections.find((s: { id: string }) => s.id === id);
    expect(section('nodes').status).toBe('unknown');
    expect(section('nodes').summary).toMatch(
      /workload view missing: no workload credentials for web \(run `k8s-health enroll web`/,
    );
    expect(section('workloads').status).toBe('unknown');
    expect(section('apiserver').status).toBe('unknown');
    expect(report.status).not.toBe('healthy');
    expect(report.findings.map((f: { id: string }) => f.id)).not.toContain('apiserver.unreachable');
    expect(report.partial.some((p: { error: string }) => /workload view missing/.test(p.error))).toBe(true);
    // Read from the management cluster, restricted to the Cluster's namespace; nothing of the workload cluster.
    expect(mgmt.requests.some((q) => q.path === '/apis/cluster.x-k8s.io/v1beta2/namespaces/team-a/machines')).toBe(
      true,
    );
    expect(web.requests).toEqual([]);
  });

  it('enroll: creates the read-only reader, stores its kubeconfig next to the Cluster; the bot then reads through it only', async () => {
    const before = web.writes.length;
    const r = await runCliInProcess(['enroll', 'web', '--kubeconfig', webAdmin], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /enrolled web: the bot reads it through Secret team-a\/web-k8s-health-kubeconfig \(read-only\)/,
    );
    expect(web.writes.slice(before).map((w) => `${w.method} ${w.kind} ${w.name}`)).toEqual([
      'POST ServiceAccount k8s-health-reader',
      'POST ClusterRole k8s-health-reader',
      'POST ClusterRoleBinding k8s-health-reader',
      'POST Secret k8s-health-reader-token',
    ]);
    const role = web.find('ClusterRole', 'k8s-health-reader') as unknown as {
      rules: { verbs: string[]; resources?: string[] }[];
    };
    expect(new Set(role.rules.flatMap((x) => x.verbs))).toEqual(new Set(['get', 'list', 'watch']));
    expect(role.rules.flatMap((x) => x.resources ?? [])).not.toContain('secrets');
    const stored = mgmt.find('Secret', 'web-k8s-health-kubeconfig', 'team-a') as unknown as {
      metadata: { labels: Record<string, string> };
      data: { value: string };
    };
    expect(stored.metadata.labels['k8s-health.io/kubeconfig']).toBe('true');
    expect(Buffer.from(stored.data.value, 'base64').toString()).toContain(web.url);

    const listed = JSON.parse((await runCliInProcess(['clusters', '-o', 'json'], env())).stdout);
    expect(listed.find((c: { name: string }) => c.name === 'web').enrolled).toBe(true);

    const seen = web.requests.length;
    const check = await runCliInProcess(['check', '--cluster', 'web', '-o', 'json'], env());
    const report = JSON.parse(check.stdout);
    expect(report.sections.find((s: { id: string }) => s.id === 'nodes')).toMatchObject({
      status: 'healthy',
      summary: '2 of 2 nodes Ready (workers 2 of 2)',
    });
    const asReader = web.requests.slice(seen);
    expect(asReader.length).toBeGreaterThan(0);
    expect(
      asReader.every((q) => q.user === 'system:serviceaccount:kube-system:k8s-health-reader' || q.path === '/readyz'),
    ).toBe(true);
    expect(report.partial.filter((p: { error: string }) => /forbidden/.test(p.error))).toEqual([]);
  });

  it("enroll --use-capi-secret takes the admin credential from Cluster API's Secret; capi-admin-secret fleets say so in the report", async () => {
    const api = await mgmt.addCluster('api', { accessKinds: true, objects: [node('api-cp-1')] });
    mgmt.emit(
      'ADDED',
      kubeconfigSecret('team-b', 'api-kubeconfig', createTestKubeConfig(api.url, 'api-admin').exportConfig(), {
        'cluster.x-k8s.io/cluster-name': 'api',
      }),
    );
    const r = await runCliInProcess(['enroll', 'api', '--use-capi-secret'], env());
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(api.find('ClusterRoleBinding', 'k8s-health-reader')).toBeDefined();
    expect(mgmt.find('Secret', 'api-k8s-health-kubeconfig', 'team-b')).toBeDefined();

    const lab = path.join(work, 'lab.yaml');
    writeFileSync(
      lab,
      [
        'fleets:',
        '  - name: lab',
        `    management: { kubeconfig: ${await writeTestKubeConfig(mgmt.url, 'mgmt')} }`,
        '    namespaces: [team-b]',
        '    credentials: capi-admin-secret',
      ].join('\n'),
    );
    const check = await runCliInProcess(['check', '--cluster', 'api', '-o', 'json', '--config', lab], {
      REDIS_URL: NO_REDIS,
    });
    const report = JSON.parse(check.stdout);
    expect(report.sections.find((x: { id: string }) => x.id === 'nodes').status).toBe('healthy');
    expect(report.partial).toContainEqual({
      source: 'workload credentials',
      error: expect.stringMatching(
        /^read with Cluster API's admin kubeconfig Secret \(fleet credentials: capi-admin-secret\): for labs only/,
      ),
    });
  });

  it('enroll refuses bad usage with one line', async () => {
    const none = await runCliInProcess(['enroll', 'web'], env());
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/--kubeconfig FILE \[--context NAME\], or --use-capi-secret/);
    const unknown = await runCliInProcess(['enroll', 'nope', '--kubeconfig', webAdmin], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no discovered cluster "nope"; discovered: api, web/);
    const both = await runCliInProcess(['enroll', 'web', '--use-capi-secret', '--context', 'x'], env());
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/exclusive/)]);
  });

  it('a bad fleets: entry is one line naming the key', async () => {
    const bad = path.join(work, 'bad.yaml');
    writeFileSync(
      bad,
      [
        'fleets:',
        '  - name: Lab',
        '    credentials: admin',
        '    selector: "env=(prod"',
        '    slack: { alertChannel: "#ops" }',
      ].join('\n'),
    );
    const r = await runCliInProcess(['clusters', '--config', bad], { REDIS_URL: NO_REDIS });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/fleets\[0\]\.name: must match \[a-z0-9-\]\+/);
    expect(r.stderr).toMatch(/fleets\[0\]\.credentials/);
    expect(r.stderr).toMatch(/fleets\[0\]\.slack\.alertChannel/);
  });
});
