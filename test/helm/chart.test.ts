/**
 * The Helm chart, checked with a real helm binary (scripts/fetch-helm.js) and the
 * Kubernetes OpenAPI schemas (kubernetes-models), offline. RBAC expectations are derived from KINDS,
 * never a second hand-kept list, so a kind added to the collector without RBAC fails here; what the
 * remediation worker is granted is derived from the catalog in remediate-rbac.test.ts.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ClusterRole, ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { KINDS } from '../../src/cluster/kinds.js';
import { configSchema } from '../../src/config/config-schema.js';
import { matchesLabelSelector } from '../../src/diagnose/facts/matches-label-selector.js';
import { nonResourceGrants, ruleGrants, rulesBySubject, type Rule } from './rbac-grants.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chartDir = join(root, 'helm');
const ciDir = join(chartDir, 'ci');
const ciFiles = readdirSync(ciDir)
  .filter((f) => f.endsWith('-values.yaml'))
  .sort();

// Rendered manifests are untyped YAML until a model validates them, hence the loose types below.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: any;
};

/** The chart's names with release `khb` in namespace `ops`. */
const SERVE = 'khb-k8s-health-bot';
const WORKER = 'khb-k8s-health-bot-worker';
const REMEDIATE = 'khb-k8s-health-bot-remediate';
const SA = {
  serve: 'ops/khb-k8s-health-bot-serve',
  worker: 'ops/khb-k8s-health-bot-worker',
  remediate: 'ops/khb-k8s-health-bot-remediate',
};
/** Verbs that change something; no ServiceAccount but the remediation worker's may hold one. */
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection', 'escalate', 'bind', 'impersonate', '*'];
/** The `remediation.actions` switches (remediate-rbac.test.ts maps them to catalog actions). */
const ACTION_SWITCHES = [
  'webhookSuspend',
  'deploymentScale',
  'nodeOutOfService',
  'nodeDelete',
  'podForceDelete',
  'machineDeletion',
  'remediationPause',
];

/** Every kind the chart may render, with the model that validates it against the Kubernetes schema. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
};

let helmPath = '';

function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(helmPath, args, { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `helm template` with the given values files and --set flags; throws with helm's message on failure. */
function render(valuesFiles: string[], sets: string[] = []): Manifest[] {
  const args = ['template', 'khb', chartDir, '--namespace', 'ops'];
  for (const f of valuesFiles) args.push('-f', f.startsWith('/') ? f : join(ciDir, f));
  for (const s of sets) args.push('--set', s);
  const r = helm(args);
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr.trim()}`);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

function byKind(ms: Manifest[], kind: string): Manifest[] {
  return ms.filter((m) => m.kind === kind);
}

function one(ms: Manifest[], kind: string, name: string): Manifest {
  const found = ms.filter((m) => m.kind === kind && m.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0];
}

function container(ms: Manifest[], deployment: string): any {
  return one(ms, 'Deployment', deployment).spec.template.spec.containers[0];
}

function envOf(c: any): Record<string, any> {
  return Object.fromEntries((c.env ?? []).map((e: any) => [e.name, e.value ?? e.valueFrom]));
}

/** (group, resource) → sorted verbs, from a ClusterRole's resource rules. */
function grants(role: Manifest): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rule of role.rules as Rule[]) {
    for (const g of rule.apiGroups ?? []) {
      for (const r of rule.resources ?? []) {
        const key = `${g}/${r}`;
        out.set(key, [...new Set([...(out.get(key) ?? []), ...rule.verbs])].sort());
      }
    }
  }
  return out;
}

function expectedReadGrants(includeManagementKinds: boolean): Map<string, string[]> {
  return new Map(
    KINDS.filter((k) => includeManagementKinds || k.cluster !== 'management').map((k) => [
      `${k.group}/${k.plural}`,
      ['get', 'list', 'watch'],
    ]),
  );
}

beforeAll(() => {
  // A missing helm is a loud failure with the reason, never a skip.
  const r = spawnSync(process.execPath, [join(root, 'scripts/fetch-helm.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/fetch-helm.js failed: ${r.stderr.trim() || r.error?.message}`);
  helmPath = r.stdout.trim();
}, 120_000);

describe('helm chart', () => {
  it('keeps one values file per CI scenario', () => {
    expect(ciFiles).toEqual([
      'cluster-redis-values.yaml',
      'defaults-values.yaml',
      'external-redis-values.yaml',
      'pinned-remediation-values.yaml',
      'remediation-values.yaml',
      'sentinel-redis-values.yaml',
      'socket-mode-values.yaml',
      'worker-values.yaml',
    ]);
  });

  it.each(ciFiles)('passes helm lint --strict with ci/%s', (file) => {
    const r = helm(['lint', '--strict', chartDir, '-f', join(ciDir, file)]);
    expect(r.stderr + r.stdout).toContain('0 chart(s) failed');
    expect(r.status).toBe(0);
  });

  it.each(ciFiles)('renders ci/%s into objects valid against the Kubernetes schemas', (file) => {
    const ms = render([file]);
    expect(ms.length).toBeGreaterThan(5);
    for (const m of ms) {
      if (m.kind === 'ServiceMonitor') continue; // a CRD kubernetes-models does not know; checked in its own test
      const Model = MODELS[`${m.apiVersion}/${m.kind}`];
      if (!Model) throw new Error(`${m.apiVersion} ${m.kind} ${m.metadata.name} has no schema to validate against`);
      expect(() => new Model(m).validate()).not.toThrow();
    }
  });

  it.each(ciFiles)('renders a config.yaml from ci/%s that the bot accepts (src/config/config-schema.ts)', (file) => {
    const cm = one(render([file]), 'ConfigMap', 'khb-k8s-health-bot-config');
    const result = configSchema.safeParse(parse(cm.data['config.yaml']));
    expect(result.error?.issues ?? []).toEqual([]);
    expect(result.data?.clusters.length).toBeGreaterThan(0);
  });

  it.each(ciFiles)('hardens every container and pod rendered from ci/%s', (file) => {
    const deployments = byKind(render([file]), 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      const tmp = pod.volumes.find((v: any) => v.name === 'tmp');
      expect(tmp.emptyDir).toBeDefined();
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(c.securityContext).toEqual(
          expect.objectContaining({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          }),
        );
        expect(c.securityContext.runAsUser).toBeGreaterThan(0);
        expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
        expect(c.resources.requests).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
        expect(c.resources.limits).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
      }
    }
  });

  it('probes serve on /healthz (liveness) and /readyz (readiness) and mounts the config read-only', () => {
    const serve = container(render(['defaults-values.yaml']), SERVE);
    expect(serve.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(serve.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(serve.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
    expect(serve.volumeMounts).toContainEqual({ name: 'config', mountPath: '/etc/k8s-health/config', readOnly: true });
    expect(envOf(serve).K8S_HEALTH_CONFIG).toBe('/etc/k8s-health/config/config.yaml');
  });

  it('runs serve with no workers and no cluster access, scan/notify/expiry in the worker Deployment, remediate only when enabled', () => {
    const defaults = render(['defaults-values.yaml']);
    expect(container(defaults, SERVE).args).toEqual(['serve', '--no-workers', '--no-cluster-access']);
    expect(byKind(defaults, 'Deployment').map((d) => d.metadata.name)).toEqual([WORKER, SERVE]);
    expect(container(defaults, WORKER).args).toEqual(['worker', '--only', 'scan,notify,expiry,alerts']);

    const split = render(['worker-values.yaml']);
    expect(one(split, 'Deployment', SERVE).spec.replicas).toBe(2);
    const worker = one(split, 'Deployment', WORKER);
    expect(worker.spec.replicas).toBe(4);
    expect(worker.spec.template.spec.containers[0].image).toMatch(/@sha256:0{64}$/);
    expect(
      byKind(split, 'PodDisruptionBudget')
        .map((p) => p.spec.selector.matchLabels['app.kubernetes.io/component'])
        .sort(),
    ).toEqual(['serve', 'worker']);

    const remediation = render(['remediation-values.yaml']);
    const remediate = one(remediation, 'Deployment', REMEDIATE);
    expect(remediate.spec.template.spec.containers[0].args).toEqual(['worker', '--only', 'remediate']);
    expect(remediate.spec.template.spec.serviceAccountName).toBe('khb-k8s-health-bot-remediate');
    expect(remediate.spec.template.spec.containers[0].readinessProbe.httpGet).toEqual({
      path: '/readyz',
      port: 'http',
    });
    expect(
      byKind(remediation, 'PodDisruptionBudget')
        .map((p) => p.spec.selector.matchLabels['app.kubernetes.io/component'])
        .sort(),
    ).toEqual(['remediate', 'serve', 'worker']);
    // Each Deployment runs under its own ServiceAccount, created by the chart.
    const accounts = byKind(remediation, 'ServiceAccount');
    expect(accounts.map((a) => a.metadata.name).sort()).toEqual([
      'khb-k8s-health-bot-remediate',
      'khb-k8s-health-bot-serve',
      'khb-k8s-health-bot-worker',
    ]);
    for (const d of byKind(remediation, 'Deployment').filter((d) => !d.metadata.name.endsWith('-redis'))) {
      expect(d.spec.template.spec.serviceAccountName).toBe(
        `khb-k8s-health-bot-${d.metadata.labels!['app.kubernetes.io/component']}`,
      );
    }
  });

  it('gives each pod only the secrets and mounts it uses: serve no cluster credential, the scan worker no signing keys', () => {
    const ms = render(['remediation-values.yaml']);
    const env = (d: string) => envOf(container(ms, d));
    const mounts = (d: string) =>
      container(ms, d)
        .volumeMounts.map((m: any) => m.name)
        .sort();
    // serve: Slack (bot token, signing secret), Redis, the plan secret (it signs plans); nothing of a cluster.
    expect(Object.keys(env(SERVE)).sort()).toEqual([
      'K8S_HEALTH_CONFIG',
      'K8S_HEALTH_PLAN_SECRET',
      'LOG_LEVEL',
      'PORT',
      'REDIS_PASSWORD',
      'REDIS_URL',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
    ]);
    expect(mounts(SERVE)).toEqual(['config', 'tmp']);
    expect(one(ms, 'Deployment', SERVE).spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(one(ms, 'ServiceAccount', 'khb-k8s-health-bot-serve').automountServiceAccountToken).toBe(false);
    // worker (scan, notify, expiry): Slack bot token and Redis; the etcd certificate for scans; no signing secret, no
    // plan secret.
    expect(Object.keys(env(WORKER)).sort()).toEqual([
      'K8S_HEALTH_CONFIG',
      'LOG_LEVEL',
      'PORT',
      'REDIS_PASSWORD',
      'REDIS_URL',
      'SLACK_BOT_TOKEN',
    ]);
    expect(mounts(WORKER)).toEqual(['config', 'etcd-tls', 'tmp']);
    // remediate: adds the plan secret (it verifies plans before running them).
    expect(Object.keys(env(REMEDIATE)).sort()).toEqual([
      'K8S_HEALTH_CONFIG',
      'K8S_HEALTH_PLAN_SECRET',
      'LOG_LEVEL',
      'PORT',
      'REDIS_PASSWORD',
      'REDIS_URL',
      'SLACK_BOT_TOKEN',
    ]);
    expect(mounts(REMEDIATE)).toEqual(['config', 'etcd-tls', 'tmp']);
    for (const d of [SERVE, REMEDIATE])
      expect(env(d).K8S_HEALTH_PLAN_SECRET).toEqual({
        secretKeyRef: { name: 'k8s-health-plan', key: 'K8S_HEALTH_PLAN_SECRET' },
      });

    // Socket Mode: the app token goes to serve only.
    const socket = render(['socket-mode-values.yaml']);
    expect(envOf(container(socket, SERVE)).SLACK_APP_TOKEN).toBeDefined();
    expect(envOf(container(socket, WORKER)).SLACK_APP_TOKEN).toBeUndefined();
  });

  it('creates the plan-signing Secret from a value, or references an existing one', () => {
    const created = render(['defaults-values.yaml']);
    expect(one(created, 'Secret', 'khb-k8s-health-bot-plan-signing').stringData).toEqual({
      K8S_HEALTH_PLAN_SECRET: 'ci-plan-signing-key-at-least-32-bytes-long',
    });
    expect(envOf(container(created, SERVE)).K8S_HEALTH_PLAN_SECRET).toEqual({
      secretKeyRef: { name: 'khb-k8s-health-bot-plan-signing', key: 'K8S_HEALTH_PLAN_SECRET' },
    });
    const referenced = render(['external-redis-values.yaml']);
    expect(byKind(referenced, 'Secret')).toEqual([]);
    expect(envOf(container(referenced, SERVE)).K8S_HEALTH_PLAN_SECRET).toEqual({
      secretKeyRef: { name: 'k8s-health-plan', key: 'plan-key' },
    });
  });

  it('gives serve alone K8S_HEALTH_ALERTMANAGER_TOKEN when alertmanager.enabled, from a created or an existing Secret', () => {
    expect(envOf(container(render(['defaults-values.yaml']), SERVE)).K8S_HEALTH_ALERTMANAGER_TOKEN).toBeUndefined();
    const created = render(
      ['defaults-values.yaml'],
      ['alertmanager.enabled=true', 'alertmanager.token=ci-alertmanager-token-0123'],
    );
    expect(one(created, 'Secret', 'khb-k8s-health-bot-alertmanager').stringData).toEqual({
      K8S_HEALTH_ALERTMANAGER_TOKEN: 'ci-alertmanager-token-0123',
    });
    expect(envOf(container(created, SERVE)).K8S_HEALTH_ALERTMANAGER_TOKEN).toEqual({
      secretKeyRef: { name: 'khb-k8s-health-bot-alertmanager', key: 'K8S_HEALTH_ALERTMANAGER_TOKEN' },
    });
    expect(envOf(container(created, WORKER)).K8S_HEALTH_ALERTMANAGER_TOKEN).toBeUndefined();
    const referenced = render(
      ['defaults-values.yaml'],
      ['alertmanager.enabled=true', 'alertmanager.existingSecret=am-token', 'alertmanager.existingSecretKey=token'],
    );
    expect(byKind(referenced, 'Secret').map((m) => m.metadata.name)).not.toContain('khb-k8s-health-bot-alertmanager');
    expect(envOf(container(referenced, SERVE)).K8S_HEALTH_ALERTMANAGER_TOKEN).toEqual({
      secretKeyRef: { name: 'am-token', key: 'token' },
    });
    expect(() => render(['defaults-values.yaml'], ['alertmanager.enabled=true'])).toThrow(
      /alertmanager.token is required/,
    );
  });

  it("mounts remote kubeconfigs in the workers only, the remediation worker's own Secret when given", () => {
    const ms = render(['pinned-remediation-values.yaml']);
    const secretOf = (d: string) =>
      one(ms, 'Deployment', d).spec.template.spec.volumes.find((v: any) => v.name === 'kubeconfigs')?.secret.secretName;
    expect(secretOf(SERVE)).toBeUndefined();
    expect(secretOf(WORKER)).toBe('k8s-health-kubeconfigs-read');
    expect(secretOf(REMEDIATE)).toBe('k8s-health-kubeconfigs-write');
    for (const d of [WORKER, REMEDIATE])
      expect(container(ms, d).volumeMounts).toContainEqual({
        name: 'kubeconfigs',
        mountPath: '/etc/k8s-health/kubeconfigs',
        readOnly: true,
      });
    // Without remediation.kubeconfigs both workers share kubeconfigs.existingSecret.
    const shared = render(['pinned-remediation-values.yaml'], ['remediation.kubeconfigs.existingSecret=']);
    expect(
      one(shared, 'Deployment', REMEDIATE).spec.template.spec.volumes.find((v: any) => v.name === 'kubeconfigs').secret
        .secretName,
    ).toBe('k8s-health-kubeconfigs-read');
  });

  it('scrapes the worker pods too: named port, headless Service, ServiceMonitor (worker.metrics)', () => {
    const ms = render(['worker-values.yaml']);
    const worker = container(ms, 'khb-k8s-health-bot-worker');
    expect(worker.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
    expect(envOf(worker).PORT).toBe('3000');
    const pod = one(ms, 'Deployment', 'khb-k8s-health-bot-worker').spec.template.metadata.labels;
    const service = one(ms, 'Service', 'khb-k8s-health-bot-worker');
    expect(service.spec).toMatchObject({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      ports: [{ name: 'http', port: 3000, targetPort: 'http', protocol: 'TCP' }],
    });
    expect(pod).toEqual(expect.objectContaining(service.spec.selector));
    expect(service.spec.selector['app.kubernetes.io/component']).toBe('worker');
    const monitor = one(ms, 'ServiceMonitor', 'khb-k8s-health-bot-worker');
    expect(service.metadata.labels).toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(monitor.spec.endpoints).toEqual([{ port: 'http', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
    // serve's ServiceMonitor selects only serve's Service, the worker's only the worker's.
    expect(one(ms, 'Service', 'khb-k8s-health-bot').metadata.labels).not.toEqual(
      expect.objectContaining(monitor.spec.selector.matchLabels),
    );
    expect(
      one(ms, 'ServiceMonitor', 'khb-k8s-health-bot').spec.selector.matchLabels['app.kubernetes.io/component'],
    ).toBe('serve');

    // Off with worker.metrics.enabled=false or without the ServiceMonitor; the port stays (probes, manual scrapes).
    for (const set of ['worker.metrics.enabled=false', 'metrics.serviceMonitor.enabled=false']) {
      const off = render(['worker-values.yaml'], [set]);
      expect(byKind(off, 'Service').map((s) => s.metadata.name)).toEqual(['khb-k8s-health-bot']);
      expect(byKind(off, 'ServiceMonitor').map((s) => s.metadata.name)).toEqual(
        set.startsWith('worker') ? ['khb-k8s-health-bot'] : [],
      );
      expect(container(off, 'khb-k8s-health-bot-worker').ports).toEqual([
        { name: 'http', containerPort: 3000, protocol: 'TCP' },
      ]);
    }
  });

  it('HTTP mode: signing secret, no app token, Service and Ingress on /slack/events', () => {
    const ms = render(['external-redis-values.yaml']);
    const env = envOf(container(ms, 'khb-k8s-health-bot'));
    expect(env.SLACK_SIGNING_SECRET).toEqual({ secretKeyRef: { name: 'k8s-health-slack', key: 'signing-secret' } });
    // SLACK_APP_TOKEN being set is what switches serve to Socket Mode, so HTTP mode must not set it.
    expect(env.SLACK_APP_TOKEN).toBeUndefined();
    one(ms, 'Service', 'khb-k8s-health-bot');
    const ingress = one(ms, 'Ingress', 'khb-k8s-health-bot');
    expect(ingress.spec.rules[0].http.paths).toEqual([
      {
        path: '/slack/events',
        pathType: 'Exact',
        backend: { service: { name: 'khb-k8s-health-bot', port: { name: 'http' } } },
      },
    ]);
    expect(ingress.spec.tls).toEqual([{ hosts: ['k8s-health.example.com'], secretName: 'k8s-health-tls' }]);
  });

  it('Socket Mode: app token, no Ingress, Service only for the ServiceMonitor, no inbound NetworkPolicy rule', () => {
    const ms = render(['socket-mode-values.yaml']);
    const env = envOf(container(ms, 'khb-k8s-health-bot'));
    expect(env.SLACK_APP_TOKEN).toEqual({ secretKeyRef: { name: 'khb-k8s-health-bot-slack', key: 'SLACK_APP_TOKEN' } });
    expect(env.SLACK_SIGNING_SECRET).toBeUndefined();
    expect(byKind(ms, 'Ingress')).toEqual([]);
    const policy = one(ms, 'NetworkPolicy', 'khb-k8s-health-bot');
    expect(policy.spec.ingress).toEqual([]);
    expect(policy.spec.egress[0].ports).toEqual([
      { port: 53, protocol: 'UDP' },
      { port: 53, protocol: 'TCP' },
    ]);

    const service = one(ms, 'Service', 'khb-k8s-health-bot');
    const monitor = one(ms, 'ServiceMonitor', 'khb-k8s-health-bot');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels?.release).toBe('prometheus');
    expect(service.metadata.labels).toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(monitor.spec.endpoints).toEqual([
      { port: service.spec.ports[0].name, path: '/metrics', interval: '30s', scrapeTimeout: '10s' },
    ]);

    const noMetrics = render(['socket-mode-values.yaml'], ['metrics.serviceMonitor.enabled=false']);
    expect(byKind(noMetrics, 'Service')).toEqual([]);
  });

  it('takes Slack and Redis from existing Secrets without creating any Secret, and mounts kubeconfigs read-only in the worker', () => {
    const ms = render(['external-redis-values.yaml']);
    expect(byKind(ms, 'Secret')).toEqual([]);
    for (const d of [SERVE, WORKER]) {
      const env = envOf(container(ms, d));
      expect(env.SLACK_BOT_TOKEN).toEqual({ secretKeyRef: { name: 'k8s-health-slack', key: 'bot-token' } });
      expect(env.REDIS_URL).toEqual({ secretKeyRef: { name: 'k8s-health-redis', key: 'url' } });
    }
    expect(container(ms, WORKER).volumeMounts).toContainEqual({
      name: 'kubeconfigs',
      mountPath: '/etc/k8s-health/kubeconfigs',
      readOnly: true,
    });
    expect(container(ms, SERVE).volumeMounts.map((m: any) => m.name)).not.toContain('kubeconfigs');
    expect(byKind(ms, 'Deployment').map((d) => d.metadata.name)).toEqual([WORKER, SERVE]);
  });

  it('connects through a Sentinel topology: REDIS_SENTINELS and REDIS_SENTINEL_MASTER as values, its passwords from the Secret, no REDIS_URL', () => {
    const ms = render(['sentinel-redis-values.yaml']);
    expect(byKind(ms, 'Secret')).toEqual([]);
    for (const d of [SERVE, WORKER]) {
      const env = envOf(container(ms, d));
      expect(env.REDIS_SENTINELS).toBe(
        'redis-sentinel-0.redis:26379,redis-sentinel-1.redis:26379,redis-sentinel-2.redis:26379',
      );
      expect(env.REDIS_SENTINEL_MASTER).toBe('k8shealth');
      expect(env.REDIS_PASSWORD).toEqual({
        secretKeyRef: { name: 'k8s-health-redis-sentinel', key: 'redis-password' },
      });
      expect(env.REDIS_SENTINEL_PASSWORD).toEqual({
        secretKeyRef: { name: 'k8s-health-redis-sentinel', key: 'sentinel-password' },
      });
      expect(env.REDIS_URL).toBeUndefined();
    }
    const conflict = helm([
      'template',
      'khb',
      chartDir,
      '-f',
      join(ciDir, 'sentinel-redis-values.yaml'),
      '--set',
      'redis.url=redis://r:6379',
    ]);
    expect(conflict.status).not.toBe(0);
    expect(conflict.stderr).toContain(
      'set only one of redis.url, redis.existingSecret, redis.inCluster.enabled, redis.sentinels, redis.clusterNodes',
    );
    const noMaster = helm([
      'template',
      'khb',
      chartDir,
      '-f',
      join(ciDir, 'sentinel-redis-values.yaml'),
      '--set',
      'redis.sentinelMaster=',
    ]);
    expect(noMaster.stderr).toContain('redis.sentinels is set but redis.sentinelMaster is not');
    const badEntry = helm([
      'template',
      'khb',
      chartDir,
      '-f',
      join(ciDir, 'sentinel-redis-values.yaml'),
      '--set',
      'redis.sentinels[0]=no-port',
    ]);
    expect(badEntry.status).not.toBe(0);
  });

  it('connects to a Redis Cluster: REDIS_CLUSTER_NODES as a value, its password from the Secret, no REDIS_URL', () => {
    const ms = render(['cluster-redis-values.yaml']);
    expect(byKind(ms, 'Secret')).toEqual([]);
    for (const d of [SERVE, WORKER]) {
      const env = envOf(container(ms, d));
      expect(env.REDIS_CLUSTER_NODES).toBe(
        'redis-cluster-0.redis:6379,redis-cluster-1.redis:6379,redis-cluster-2.redis:6379',
      );
      expect(env.REDIS_PASSWORD).toEqual({ secretKeyRef: { name: 'k8s-health-redis-cluster', key: 'redis-password' } });
      expect(env.REDIS_URL).toBeUndefined();
      expect(env.REDIS_SENTINELS).toBeUndefined();
    }
    const conflict = helm([
      'template',
      'khb',
      chartDir,
      '-f',
      join(ciDir, 'cluster-redis-values.yaml'),
      '--set',
      'redis.sentinels[0]=s:26379',
      '--set',
      'redis.sentinelMaster=m',
    ]);
    expect(conflict.status).not.toBe(0);
    expect(conflict.stderr).toContain(
      'set only one of redis.url, redis.existingSecret, redis.inCluster.enabled, redis.sentinels, redis.clusterNodes',
    );
    const badEntry = helm([
      'template',
      'khb',
      chartDir,
      '-f',
      join(ciDir, 'cluster-redis-values.yaml'),
      '--set',
      'redis.clusterNodes[0]=no-port',
    ]);
    expect(badEntry.status).not.toBe(0);
  });

  it('keeps a Redis URL given as a value in a Secret, never in a plain env value', () => {
    const ms = render(['socket-mode-values.yaml']);
    const secret = one(ms, 'Secret', 'khb-k8s-health-bot-redis-url');
    expect(secret.stringData).toEqual({ REDIS_URL: 'rediss://:secret@redis.example.internal:6380/0' });
    for (const d of [SERVE, WORKER])
      expect(envOf(container(ms, d)).REDIS_URL).toEqual({
        secretKeyRef: { name: 'khb-k8s-health-bot-redis-url', key: 'REDIS_URL' },
      });
  });

  it('offers an optional in-cluster Redis (noeviction for BullMQ, appendfsync always), never without a password', () => {
    const ms = render(['remediation-values.yaml']);
    const redis = container(ms, 'khb-k8s-health-bot-redis');
    expect(redis.args).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction']));
    expect(redis.args.join(' ')).toContain('--appendonly yes --appendfsync always');
    expect(one(ms, 'Deployment', 'khb-k8s-health-bot-redis').spec.template.spec.automountServiceAccountToken).toBe(
      false,
    );
    expect(byKind(render(['defaults-values.yaml']), 'Deployment').some((d) => d.metadata.name.endsWith('-redis'))).toBe(
      false,
    );
  });

  it.each([
    ['a generated password', 'remediation-values.yaml', 'khb-k8s-health-bot-redis-auth', 'redis-password'],
    ['an existing Secret', 'pinned-remediation-values.yaml', 'k8s-health-redis-auth', 'password'],
  ])(
    'requires the in-cluster Redis password (%s) and builds every REDIS_URL with it',
    (_how, file, secretName, key) => {
      const ms = render([file]);
      const redis = container(ms, 'khb-k8s-health-bot-redis');
      const ref = { secretKeyRef: { name: secretName, key } };
      // The kubelet expands $(REDIS_PASSWORD) from the container's env: the manifest never holds the password.
      expect(redis.args.slice(0, 3)).toEqual(['redis-server', '--requirepass', '$(REDIS_PASSWORD)']);
      expect(envOf(redis)).toEqual({ REDIS_PASSWORD: ref, REDISCLI_AUTH: ref });
      // An unauthenticated PING answers NOAUTH and redis-cli still exits 0: the probe needs the PONG.
      expect(redis.readinessProbe.exec.command).toEqual(['sh', '-c', 'redis-cli ping | grep -q PONG']);
      for (const d of [SERVE, WORKER, REMEDIATE]) {
        const env = container(ms, d).env as { name: string }[];
        const names = env.map((e) => e.name);
        expect(envOf(container(ms, d)).REDIS_PASSWORD).toEqual(ref);
        expect(envOf(container(ms, d)).REDIS_URL).toBe('redis://:$(REDIS_PASSWORD)@khb-k8s-health-bot-redis:6379');
        // Kubernetes expands $(VAR) only from variables listed earlier.
        expect(names.indexOf('REDIS_PASSWORD')).toBeLessThan(names.indexOf('REDIS_URL'));
      }
      const generated = byKind(ms, 'Secret').filter((x) => x.metadata.name === 'khb-k8s-health-bot-redis-auth');
      if (secretName === 'khb-k8s-health-bot-redis-auth')
        expect(generated[0]!.stringData['redis-password']).toMatch(/^[A-Za-z0-9]{32}$/);
      else expect(generated).toEqual([]);
    },
  );

  it("lets only the bot's own pods of this release reach the in-cluster Redis, on by default (NetworkPolicy)", () => {
    for (const file of ['remediation-values.yaml', 'pinned-remediation-values.yaml']) {
      const ms = render([file]);
      const policy = one(ms, 'NetworkPolicy', 'khb-k8s-health-bot-redis');
      const podLabels = (d: string) => one(ms, 'Deployment', d).spec.template.metadata.labels as Record<string, string>;
      const deployments = byKind(ms, 'Deployment').map((d) => d.metadata.name);
      // It applies to the Redis pod and nothing else.
      expect(deployments.filter((d) => matchesLabelSelector(policy.spec.podSelector, podLabels(d)))).toEqual([
        'khb-k8s-health-bot-redis',
      ]);
      expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
      expect(policy.spec.egress).toEqual([]);
      expect(policy.spec.ingress).toHaveLength(1);
      const [rule] = policy.spec.ingress;
      expect(rule.ports).toEqual([{ port: 6379, protocol: 'TCP' }]);
      expect(rule.from).toHaveLength(1);
      // No namespaceSelector: peers of this namespace only; among them exactly serve, worker, remediate.
      expect(Object.keys(rule.from[0])).toEqual(['podSelector']);
      expect(deployments.filter((d) => matchesLabelSelector(rule.from[0].podSelector, podLabels(d))).sort()).toEqual(
        [REMEDIATE, WORKER, SERVE].sort(),
      );
      // Another release's bot, or an unlabelled pod, is not admitted.
      expect(
        matchesLabelSelector(rule.from[0].podSelector, { ...podLabels(SERVE), 'app.kubernetes.io/instance': 'other' }),
      ).toBe(false);
      expect(matchesLabelSelector(rule.from[0].podSelector, {})).toBe(false);
    }
    // On by default, independent of the bot's own policy; off only when asked.
    const defaults = render(['defaults-values.yaml'], ['redis.url=', 'redis.inCluster.enabled=true']);
    expect(byKind(defaults, 'NetworkPolicy').map((p) => p.metadata.name)).toEqual(['khb-k8s-health-bot-redis']);
    const off = render(
      ['defaults-values.yaml'],
      ['redis.url=', 'redis.inCluster.enabled=true', 'redis.inCluster.networkPolicy.enabled=false'],
    );
    expect(byKind(off, 'NetworkPolicy')).toEqual([]);
  });

  it("applies the bot's own NetworkPolicy to serve and both workers, never to Redis", () => {
    const ms = render(['remediation-values.yaml']);
    const policy = one(ms, 'NetworkPolicy', 'khb-k8s-health-bot');
    const selected = byKind(ms, 'Deployment')
      .filter((d) => matchesLabelSelector(policy.spec.podSelector, d.spec.template.metadata.labels))
      .map((d) => d.metadata.name);
    expect(selected.sort()).toEqual([REMEDIATE, WORKER, SERVE].sort());
    // It lets the bot reach the in-cluster Redis pod (and only that pod on 6379 by selector).
    const toRedis = policy.spec.egress.find((e: any) => e.to);
    expect(toRedis.to[0].podSelector.matchLabels['app.kubernetes.io/component']).toBe('redis');
  });

  it('mounts the etcd client TLS Secret read-only in the workers, where the config points, never in serve', () => {
    const ms = render(['remediation-values.yaml']);
    for (const d of [WORKER, REMEDIATE]) {
      const pod = one(ms, 'Deployment', d).spec.template.spec;
      expect(pod.volumes).toContainEqual({
        name: 'etcd-tls',
        secret: { secretName: 'etcd-client-tls', defaultMode: 0o440 },
      });
      expect(pod.containers[0].volumeMounts).toContainEqual({
        name: 'etcd-tls',
        mountPath: '/etc/k8s-health/etcd',
        readOnly: true,
      });
    }
    expect(one(ms, 'Deployment', SERVE).spec.template.spec.volumes.map((v: any) => v.name)).not.toContain('etcd-tls');
    const config = configSchema.parse(parse(one(ms, 'ConfigMap', 'khb-k8s-health-bot-config').data['config.yaml']));
    expect(config.clusters[0].etcd?.caFile?.startsWith('/etc/k8s-health/etcd/')).toBe(true);
  });

  it('rolls the pods when the config changes (checksum annotation)', () => {
    const annotation = (ms: Manifest[]) =>
      one(ms, 'Deployment', SERVE).spec.template.metadata.annotations['checksum/config'];
    const before = annotation(render(['defaults-values.yaml']));
    const after = annotation(render(['defaults-values.yaml'], ['config.scan.intervalSeconds=30']));
    expect(after).not.toBe(before);
  });

  it('fails with an actionable message when Redis, Slack or plan-signing credentials are missing or ambiguous', () => {
    expect(() => render([], ['planSigning.existingSecret=p'])).toThrow(
      /slack\.botToken is required unless slack\.existingSecret is set/,
    );
    expect(() => render([], ['slack.existingSecret=s', 'planSigning.existingSecret=p'])).toThrow(
      /no Redis configured: set redis\.url, redis\.existingSecret, redis\.sentinels with redis\.sentinelMaster, redis\.clusterNodes, or redis\.inCluster\.enabled=true/,
    );
    expect(() => render(['defaults-values.yaml'], ['planSigning.secret='])).toThrow(
      /planSigning\.secret is required unless planSigning\.existingSecret is set: the key remediation plans are signed with, at least 32 bytes/,
    );
    expect(() => render(['defaults-values.yaml'], ['redis.inCluster.enabled=true'])).toThrow(
      /set only one of redis\.url, redis\.existingSecret, redis\.inCluster\.enabled/,
    );
    expect(() => render(['defaults-values.yaml'], ['slack.socketMode=true'])).toThrow(
      /slack\.appToken .* is required in Socket Mode/,
    );
    // A cluster with remediation on and no remediation worker would queue approved fixes that never run.
    expect(() => render(['remediation-values.yaml'], ['remediation.enabled=false'])).toThrow(
      /config cluster prod-east has remediation\.enabled: true, but remediation\.enabled \(the chart's remediation worker\) is false/,
    );
    expect(() =>
      render(
        ['remediation-values.yaml'],
        ACTION_SWITCHES.map((k) => `remediation.actions.${k}=false`),
      ),
    ).toThrow(/remediation\.enabled is true but every remediation\.actions entry is false/);
    expect(() => render(['pinned-remediation-values.yaml'], ['serviceAccount.names.worker='])).toThrow(
      /serviceAccount\.names\.worker is required when serviceAccount\.create is false/,
    );
  });
});

describe('values.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8'));

  it('is draft-07 and accepts the chart defaults (helm lint above covers the CI values files)', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema);
    const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
    expect(validate(values) ? [] : validate.errors).toEqual([]);
  });

  it.each([
    ['a negative replica count', 'replicaCount: -1\n', 'replicaCount: Must be greater than or equal to 0'],
    ['an unknown top-level key', 'replicas: 2\n', 'Additional property replicas is not allowed'],
    ['a wrong type', 'port: "3000"\n', 'port: Invalid type. Expected: integer, given: string'],
    [
      'a string where a boolean goes',
      'remediation:\n  enabled: "yes"\n',
      'remediation.enabled: Invalid type. Expected: boolean, given: string',
    ],
    [
      'the old place of the remediation switch (chart 0.1)',
      'rbac:\n  remediation:\n    enabled: true\n',
      'rbac: Additional property remediation is not allowed',
    ],
    [
      'the old worker switch (the worker Deployment is always there now)',
      'worker:\n  enabled: true\n',
      'worker: Additional property enabled is not allowed',
    ],
    [
      'a plan-signing secret shorter than 32 bytes',
      'planSigning:\n  secret: too-short\n',
      'planSigning.secret: String length must be greater than or equal to 32',
    ],
    [
      'a way to turn the Redis password off',
      'redis:\n  url: ""\n  inCluster:\n    enabled: true\n    auth:\n      enabled: false\n',
      'redis.inCluster.auth: Additional property enabled is not allowed',
    ],
    [
      'a Redis password as a plain value',
      'redis:\n  url: ""\n  inCluster:\n    enabled: true\n    auth:\n      password: hunter2\n',
      'redis.inCluster.auth: Additional property password is not allowed',
    ],
    [
      'an unknown appendfsync policy',
      'redis:\n  url: ""\n  inCluster:\n    enabled: true\n    appendfsync: sometimes\n',
      'redis.inCluster.appendfsync: redis.inCluster.appendfsync must be one of the following: "always", "everysec", "no"',
    ],
    [
      'a resource name RBAC would never match',
      'remediation:\n  resourceNames:\n    webhooks: ["Kyverno Webhook"]\n',
      'remediation.resourceNames.webhooks.0: Does not match pattern',
    ],
    [
      'a typo in a remediation action switch',
      'remediation:\n  actions:\n    nodeDrain: true\n',
      'remediation.actions: Additional property nodeDrain is not allowed',
    ],
    [
      'a ServiceAccount name that is not a DNS name',
      'serviceAccount:\n  names:\n    serve: Serve_Bot\n',
      'serviceAccount.names.serve: Does not match pattern',
    ],
    ['a typo in a nested key', 'worker:\n  replicas: 3\n', 'Additional property replicas is not allowed'],
    [
      'a negative worker replica count',
      'worker:\n  replicaCount: -2\n',
      'worker.replicaCount: Must be greater than or equal to 0',
    ],
    [
      'a typo under worker.metrics',
      'worker:\n  metrics:\n    enable: true\n',
      'Additional property enable is not allowed',
    ],
    ['an unknown log level', 'logLevel: verbose\n', 'logLevel: logLevel must be one of the following'],
  ])('makes helm reject %s', (_what, yamlText, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'khb-bad-values-'));
    try {
      const file = join(dir, 'bad-values.yaml');
      writeFileSync(file, yamlText);
      for (const cmd of [
        ['template', 'khb', chartDir],
        ['lint', '--strict', chartDir],
      ]) {
        const r = helm([...cmd, '-f', join(ciDir, 'defaults-values.yaml'), '-f', file]);
        expect(r.status).not.toBe(0);
        expect(r.stderr + r.stdout).toContain("values don't meet the specifications of the schema");
        expect(r.stderr + r.stdout).toContain(message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('RBAC', () => {
  it('grants get/list/watch on exactly the kinds in KINDS, plus the API server health URLs, and nothing else', () => {
    const ms = render(['defaults-values.yaml']);
    const read = one(ms, 'ClusterRole', 'khb-k8s-health-bot-read');
    expect(Object.fromEntries(grants(read))).toEqual(Object.fromEntries(expectedReadGrants(true)));
    const nonResource = (read.rules as Rule[]).filter((r) => r.nonResourceURLs);
    expect(nonResource).toEqual([{ nonResourceURLs: ['/readyz', '/readyz/*', '/livez'], verbs: ['get'] }]);
    // Every rule is either resource or non-resource, never both, and every resource rule is read-only.
    for (const rule of read.rules as Rule[]) {
      expect(Boolean(rule.nonResourceURLs) !== Boolean(rule.resources)).toBe(true);
    }
    const binding = one(ms, 'ClusterRoleBinding', 'khb-k8s-health-bot-read');
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'khb-k8s-health-bot-read',
    });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'khb-k8s-health-bot-worker', namespace: 'ops' }]);
  });

  it('leaves out the management-cluster kinds with rbac.capi=false', () => {
    const read = one(render(['external-redis-values.yaml']), 'ClusterRole', 'khb-k8s-health-bot-read');
    expect(Object.fromEntries(grants(read))).toEqual(Object.fromEntries(expectedReadGrants(false)));
  });

  it.each(ciFiles)(
    'binds per ServiceAccount exactly: serve nothing, worker the read role, remediate its own (ci/%s)',
    (file) => {
      const ms = render([file]);
      const bySubject = rulesBySubject(ms);
      const custom = file === 'pinned-remediation-values.yaml';
      const sa = custom ? { serve: 'ops/khb-slack', worker: 'ops/khb-reader', remediate: 'ops/khb-fixer' } : SA;
      const remediation = byKind(ms, 'Deployment').some((d) => d.metadata.name === REMEDIATE);
      expect(Object.keys(bySubject).sort()).toEqual((remediation ? [sa.remediate, sa.worker] : [sa.worker]).sort());
      // The internet-facing pod's ServiceAccount is bound to nothing at all.
      expect(bySubject[sa.serve]).toBeUndefined();
      // The worker's: exactly the read role (KINDS, the health URLs), no write verb.
      expect(ruleGrants(bySubject[sa.worker]!)).toEqual(
        Object.fromEntries(expectedReadGrants(!['external-redis-values.yaml'].includes(file))),
      );
      expect(nonResourceGrants(bySubject[sa.worker]!)).toEqual({
        '/livez': ['get'],
        '/readyz': ['get'],
        '/readyz/*': ['get'],
      });
      // Write verbs exist only for the remediation worker (what exactly: remediate-rbac.test.ts).
      for (const [subject, rules] of Object.entries(bySubject)) {
        const writes = rules.flatMap((r) => r.verbs).filter((v) => WRITE_VERBS.includes(v));
        if (subject !== sa.remediate) expect({ subject, writes }).toEqual({ subject, writes: [] });
      }
      // Each Deployment runs under the ServiceAccount these bindings name.
      const podSa = (d: string) => one(ms, 'Deployment', d).spec.template.spec.serviceAccountName;
      expect(`ops/${podSa(SERVE)}`).toBe(sa.serve);
      expect(`ops/${podSa(WORKER)}`).toBe(sa.worker);
      if (remediation) expect(`ops/${podSa(REMEDIATE)}`).toBe(sa.remediate);
      // create=false: the operator's ServiceAccounts, none rendered.
      expect(byKind(ms, 'ServiceAccount').length).toBe(custom ? 0 : remediation ? 3 : 2);
    },
  );

  it.each(ciFiles)('uses no wildcard in any role rendered from ci/%s', (file) => {
    for (const role of byKind(render([file]), 'ClusterRole')) {
      for (const rule of role.rules as Rule[]) {
        for (const v of [
          ...(rule.apiGroups ?? []),
          ...(rule.resources ?? []),
          ...rule.verbs,
          ...(rule.nonResourceURLs ?? []),
        ]) {
          expect(v === '*' || v.startsWith('*')).toBe(false);
        }
      }
    }
  });

  it('renders no remediation role, ServiceAccount or Deployment unless remediation is enabled', () => {
    for (const file of ciFiles.filter((f) => !f.includes('remediation'))) {
      const ms = render([file]);
      const names = ms
        .filter((m) => m.kind === 'ClusterRole' || m.kind === 'ClusterRoleBinding')
        .map((m) => m.metadata.name);
      expect(names.sort()).toEqual(['khb-k8s-health-bot-read', 'khb-k8s-health-bot-read']);
      expect(ms.filter((m) => m.metadata.name.endsWith('-remediate'))).toEqual([]);
    }
  });

  it('rbac.create=false renders no role or binding at all (the operator binds the ServiceAccounts)', () => {
    const ms = render(['remediation-values.yaml'], ['rbac.create=false']);
    expect(ms.filter((m) => m.kind.includes('Role'))).toEqual([]);
    expect(byKind(ms, 'ServiceAccount')).toHaveLength(3);
  });

  it('grants the remediation worker each enabled action\'s calls, reads included (docs/design.md "Fix catalog")', () => {
    const ms = render(['remediation-values.yaml']);
    expect(ruleGrants(rulesBySubject(ms)[SA.remediate]!)).toEqual({
      // webhook.suspend reads, backs up and deletes; webhook.restore checks absence and creates from the backup.
      'admissionregistration.k8s.io/validatingwebhookconfigurations': ['create', 'delete', 'get'],
      'admissionregistration.k8s.io/mutatingwebhookconfigurations': ['create', 'delete', 'get'],
      // webhook.restore reads its backend's Endpoints for its risk.
      '/endpoints': ['get'],
      // deployment.scale reads the replicas and merge-patches them (remediate-rbac.test.ts derives all of this from the
      // actions).
      'apps/deployments': ['get', 'patch'],
      // node.out-of-service taints (patch); node.delete deletes; pod.force-delete reads the pod's node.
      '/nodes': ['delete', 'get', 'patch'],
      // pod.force-delete.
      '/pods': ['delete', 'get'],
      // The node actions re-check the node's Machine (list); machine.skip-drain / skip-volume-detach and
      // their undos read the Machine and set or remove an exclude annotation (get, patch).
      'cluster.x-k8s.io/machines': ['get', 'list', 'patch'],
      // mhc.pause-remediation / mhc.resume-remediation set or remove cluster.x-k8s.io/paused.
      'cluster.x-k8s.io/machinehealthchecks': ['get', 'patch'],
      // Both refuse a target of another Cluster of the namespace: they list its Clusters first.
      'cluster.x-k8s.io/clusters': ['list'],
    });
  });

  it('withholds the verbs of a remediation action that is switched off, and pins by name (ci/pinned-remediation-values.yaml)', () => {
    const g = ruleGrants(rulesBySubject(render(['pinned-remediation-values.yaml']))['ops/khb-fixer']!);
    expect(g['/nodes']).toEqual(['get', 'patch']);
    expect(g['/pods']).toBeUndefined();
    expect(g['admissionregistration.k8s.io/mutatingwebhookconfigurations']).toEqual([
      'create',
      'delete[kyverno-policy-validating-webhook-cfg,kyverno-resource-validating-webhook-cfg]',
      'get[kyverno-policy-validating-webhook-cfg,kyverno-resource-validating-webhook-cfg]',
    ]);
    expect(g['apps/deployments']).toEqual(['get[kyverno-admission-controller]', 'patch[kyverno-admission-controller]']);
  });
});
