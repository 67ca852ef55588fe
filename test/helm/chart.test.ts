/**
 * The Helm chart (issue 7), checked with a real helm binary (scripts/fetch-helm.js) and the Kubernetes
 * OpenAPI schemas (kubernetes-models), offline. RBAC expectations are derived from KINDS, never a
 * second hand-kept list, so a kind added to the collector without RBAC fails here.
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

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chartDir = join(root, 'helm');
const ciDir = join(chartDir, 'ci');
const ciFiles = readdirSync(ciDir).filter((f) => f.endsWith('-values.yaml')).sort();

// Rendered manifests are untyped YAML until a model validates them, hence the loose types below.
type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [key: string]: any };
interface Rule { apiGroups?: string[]; resources?: string[]; nonResourceURLs?: string[]; verbs: string[] }

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
    KINDS.filter((k) => includeManagementKinds || k.cluster !== 'management').map((k) => [`${k.group}/${k.plural}`, ['get', 'list', 'watch']]),
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
      'defaults-values.yaml',
      'external-redis-values.yaml',
      'remediation-values.yaml',
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
        expect(c.resources.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
        expect(c.resources.limits).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
      }
    }
  });

  it('probes serve on /healthz (liveness) and /readyz (readiness) and mounts the config read-only', () => {
    const serve = container(render(['defaults-values.yaml']), 'khb-k8s-health-bot');
    expect(serve.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(serve.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(serve.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
    expect(serve.volumeMounts).toContainEqual({ name: 'config', mountPath: '/etc/k8s-health/config', readOnly: true });
    expect(envOf(serve).K8S_HEALTH_CONFIG).toBe('/etc/k8s-health/config/config.yaml');
  });

  it('runs workers in serve by default, and only in the worker Deployment when it is enabled', () => {
    const defaults = render(['defaults-values.yaml']);
    expect(container(defaults, 'khb-k8s-health-bot').args).toEqual(['serve']);
    expect(byKind(defaults, 'Deployment').map((d) => d.metadata.name)).toEqual(['khb-k8s-health-bot']);

    const split = render(['worker-values.yaml']);
    expect(container(split, 'khb-k8s-health-bot').args).toEqual(['serve', '--no-workers']);
    expect(one(split, 'Deployment', 'khb-k8s-health-bot').spec.replicas).toBe(2);
    const worker = one(split, 'Deployment', 'khb-k8s-health-bot-worker');
    expect(worker.spec.replicas).toBe(4);
    expect(worker.spec.template.spec.containers[0].args).toEqual(['worker']);
    expect(worker.spec.template.spec.containers[0].image).toMatch(/@sha256:0{64}$/);
    expect(byKind(split, 'PodDisruptionBudget').map((p) => p.spec.selector.matchLabels['app.kubernetes.io/component']).sort()).toEqual(['serve', 'worker']);
  });

  it('scrapes the worker pods too: named port, headless Service, ServiceMonitor (worker.metrics)', () => {
    const ms = render(['worker-values.yaml']);
    const worker = container(ms, 'khb-k8s-health-bot-worker');
    expect(worker.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
    expect(envOf(worker).PORT).toBe('3000');
    const pod = one(ms, 'Deployment', 'khb-k8s-health-bot-worker').spec.template.metadata.labels;
    const service = one(ms, 'Service', 'khb-k8s-health-bot-worker');
    expect(service.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true, ports: [{ name: 'http', port: 3000, targetPort: 'http', protocol: 'TCP' }] });
    expect(pod).toEqual(expect.objectContaining(service.spec.selector));
    expect(service.spec.selector['app.kubernetes.io/component']).toBe('worker');
    const monitor = one(ms, 'ServiceMonitor', 'khb-k8s-health-bot-worker');
    expect(service.metadata.labels).toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(monitor.spec.endpoints).toEqual([{ port: 'http', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
    // serve's ServiceMonitor selects only serve's Service, the worker's only the worker's.
    expect(one(ms, 'Service', 'khb-k8s-health-bot').metadata.labels).not.toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(one(ms, 'ServiceMonitor', 'khb-k8s-health-bot').spec.selector.matchLabels['app.kubernetes.io/component']).toBe('serve');

    // Off with worker.metrics.enabled=false or without the ServiceMonitor; the port stays (probes, manual scrapes).
    for (const set of ['worker.metrics.enabled=false', 'metrics.serviceMonitor.enabled=false']) {
      const off = render(['worker-values.yaml'], [set]);
      expect(byKind(off, 'Service').map((s) => s.metadata.name)).toEqual(['khb-k8s-health-bot']);
      expect(byKind(off, 'ServiceMonitor').map((s) => s.metadata.name)).toEqual(set.startsWith('worker') ? ['khb-k8s-health-bot'] : []);
      expect(container(off, 'khb-k8s-health-bot-worker').ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
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
      { path: '/slack/events', pathType: 'Exact', backend: { service: { name: 'khb-k8s-health-bot', port: { name: 'http' } } } },
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
    expect(policy.spec.egress[0].ports).toEqual([{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }]);

    const service = one(ms, 'Service', 'khb-k8s-health-bot');
    const monitor = one(ms, 'ServiceMonitor', 'khb-k8s-health-bot');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels?.release).toBe('prometheus');
    expect(service.metadata.labels).toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(monitor.spec.endpoints).toEqual([{ port: service.spec.ports[0].name, path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);

    const noMetrics = render(['socket-mode-values.yaml'], ['metrics.serviceMonitor.enabled=false']);
    expect(byKind(noMetrics, 'Service')).toEqual([]);
  });

  it('takes Slack and Redis from existing Secrets without creating any Secret, and mounts kubeconfigs read-only', () => {
    const ms = render(['external-redis-values.yaml']);
    expect(byKind(ms, 'Secret')).toEqual([]);
    const serve = container(ms, 'khb-k8s-health-bot');
    const env = envOf(serve);
    expect(env.SLACK_BOT_TOKEN).toEqual({ secretKeyRef: { name: 'k8s-health-slack', key: 'bot-token' } });
    expect(env.REDIS_URL).toEqual({ secretKeyRef: { name: 'k8s-health-redis', key: 'url' } });
    expect(serve.volumeMounts).toContainEqual({ name: 'kubeconfigs', mountPath: '/etc/k8s-health/kubeconfigs', readOnly: true });
    expect(byKind(ms, 'Deployment').map((d) => d.metadata.name)).toEqual(['khb-k8s-health-bot']);
  });

  it('keeps a Redis URL given as a value in a Secret, never in a plain env value', () => {
    const ms = render(['socket-mode-values.yaml']);
    const secret = one(ms, 'Secret', 'khb-k8s-health-bot-redis-url');
    expect(secret.stringData).toEqual({ REDIS_URL: 'rediss://:secret@redis.example.internal:6380/0' });
    expect(envOf(container(ms, 'khb-k8s-health-bot')).REDIS_URL).toEqual({ secretKeyRef: { name: 'khb-k8s-health-bot-redis-url', key: 'REDIS_URL' } });
  });

  it('offers an optional in-cluster Redis (noeviction for BullMQ), reachable only from the bot', () => {
    const ms = render(['remediation-values.yaml']);
    const redis = container(ms, 'khb-k8s-health-bot-redis');
    expect(redis.args).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction']));
    expect(one(ms, 'Deployment', 'khb-k8s-health-bot-redis').spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(envOf(container(ms, 'khb-k8s-health-bot')).REDIS_URL).toBe('redis://khb-k8s-health-bot-redis:6379');
    const policy = one(ms, 'NetworkPolicy', 'khb-k8s-health-bot-redis');
    expect(policy.spec.egress).toEqual([]);
    expect(policy.spec.ingress[0].from[0].podSelector.matchExpressions).toEqual([
      { key: 'app.kubernetes.io/component', operator: 'In', values: ['serve', 'worker'] },
    ]);
    expect(byKind(render(['defaults-values.yaml']), 'Deployment').some((d) => d.metadata.name.endsWith('-redis'))).toBe(false);
  });

  it('mounts the etcd client TLS Secret read-only where the config points', () => {
    const ms = render(['remediation-values.yaml']);
    const pod = one(ms, 'Deployment', 'khb-k8s-health-bot').spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'etcd-tls', secret: { secretName: 'etcd-client-tls', defaultMode: 0o440 } });
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'etcd-tls', mountPath: '/etc/k8s-health/etcd', readOnly: true });
    const config = configSchema.parse(parse(one(ms, 'ConfigMap', 'khb-k8s-health-bot-config').data['config.yaml']));
    expect(config.clusters[0].etcd?.caFile?.startsWith('/etc/k8s-health/etcd/')).toBe(true);
  });

  it('rolls the pods when the config changes (checksum annotation)', () => {
    const annotation = (ms: Manifest[]) => one(ms, 'Deployment', 'khb-k8s-health-bot').spec.template.metadata.annotations['checksum/config'];
    const before = annotation(render(['defaults-values.yaml']));
    const after = annotation(render(['defaults-values.yaml'], ['config.scan.intervalSeconds=30']));
    expect(after).not.toBe(before);
  });

  it('fails with an actionable message when Redis or Slack credentials are missing or ambiguous', () => {
    expect(() => render([])).toThrow(/slack\.botToken is required unless slack\.existingSecret is set/);
    expect(() => render([], ['slack.existingSecret=s'])).toThrow(/no Redis configured: set redis\.url, redis\.existingSecret, or redis\.inCluster\.enabled=true/);
    expect(() => render(['defaults-values.yaml'], ['redis.inCluster.enabled=true'])).toThrow(/set only one of redis\.url, redis\.existingSecret, redis\.inCluster\.enabled/);
    expect(() => render(['defaults-values.yaml'], ['slack.socketMode=true'])).toThrow(/slack\.appToken .* is required in Socket Mode/);
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
    ['a string where a boolean goes', 'rbac:\n  remediation:\n    enabled: "yes"\n', 'rbac.remediation.enabled: Invalid type. Expected: boolean, given: string'],
    ['a typo in a nested key', 'worker:\n  replicas: 3\n', 'Additional property replicas is not allowed'],
    ['a negative worker replica count', 'worker:\n  replicaCount: -2\n', 'worker.replicaCount: Must be greater than or equal to 0'],
    ['a typo under worker.metrics', 'worker:\n  metrics:\n    enable: true\n', 'Additional property enable is not allowed'],
    ['an unknown log level', 'logLevel: verbose\n', 'logLevel: logLevel must be one of the following'],
  ])('makes helm reject %s', (_what, yamlText, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'khb-bad-values-'));
    try {
      const file = join(dir, 'bad-values.yaml');
      writeFileSync(file, yamlText);
      for (const cmd of [['template', 'khb', chartDir], ['lint', '--strict', chartDir]]) {
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
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'khb-k8s-health-bot-read' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'khb-k8s-health-bot', namespace: 'ops' }]);
  });

  it('leaves out the management-cluster kinds with rbac.capi=false', () => {
    const read = one(render(['external-redis-values.yaml']), 'ClusterRole', 'khb-k8s-health-bot-read');
    expect(Object.fromEntries(grants(read))).toEqual(Object.fromEntries(expectedReadGrants(false)));
  });

  it.each(ciFiles)('uses no wildcard in any role rendered from ci/%s', (file) => {
    for (const role of byKind(render([file]), 'ClusterRole')) {
      for (const rule of role.rules as Rule[]) {
        for (const v of [...(rule.apiGroups ?? []), ...(rule.resources ?? []), ...rule.verbs, ...(rule.nonResourceURLs ?? [])]) {
          expect(v === '*' || v.startsWith('*')).toBe(false);
        }
      }
    }
  });

  it('renders no remediation role unless remediation is enabled', () => {
    for (const file of ciFiles.filter((f) => f !== 'remediation-values.yaml')) {
      const names = render([file])
        .filter((m) => m.kind === 'ClusterRole' || m.kind === 'ClusterRoleBinding')
        .map((m) => m.metadata.name);
      expect(names.sort()).toEqual(['khb-k8s-health-bot-read', 'khb-k8s-health-bot-read']);
    }
  });

  it('grants each remediation action exactly the verbs it needs (DESIGN.md "Remediation actions")', () => {
    const ms = render(['remediation-values.yaml']);
    const role = one(ms, 'ClusterRole', 'khb-k8s-health-bot-remediate');
    expect(Object.fromEntries(grants(role))).toEqual({
      // webhook.suspend deletes (its backup read comes from the read role); webhook.restore creates from the backup.
      'admissionregistration.k8s.io/validatingwebhookconfigurations': ['create', 'delete'],
      'admissionregistration.k8s.io/mutatingwebhookconfigurations': ['create', 'delete'],
      // deployment.scale merge-patches spec.replicas (test/helm/remediate-rbac.test.ts derives all of this from the actions).
      'apps/deployments': ['patch'],
      // node.out-of-service taints (patch); node.delete deletes.
      '/nodes': ['delete', 'patch'],
      // pod.force-delete.
      '/pods': ['delete'],
    });
    const binding = one(ms, 'ClusterRoleBinding', 'khb-k8s-health-bot-remediate');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'khb-k8s-health-bot', namespace: 'ops' }]);
  });

  it('withholds the verbs of a remediation action that is switched off', () => {
    const role = one(
      render(['remediation-values.yaml'], ['rbac.remediation.actions.nodeDelete=false', 'rbac.remediation.actions.webhookSuspend=false']),
      'ClusterRole',
      'khb-k8s-health-bot-remediate',
    );
    const g = Object.fromEntries(grants(role));
    expect(g['/nodes']).toEqual(['patch']);
    expect(Object.keys(g).some((k) => k.startsWith('admissionregistration.k8s.io/'))).toBe(false);
  });
});
