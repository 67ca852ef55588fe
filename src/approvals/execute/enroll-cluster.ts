import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { ENROLLED_SECRET_LABEL, KUBECONFIG_KEY, enrolledSecretName } from '../../cluster/fleet/discovered-cluster.js';
import { KINDS } from '../../cluster/kinds.js';
import { RemediateError } from '../remediate-error.js';
import { describeReaderMismatch } from './describe-reader-mismatch.js';
import { proveReadOnly } from './prove-read-only.js';
import { KubeCallError, sendKube } from './send-kube.js';

/** Names of what enrollment creates in the workload cluster (docs/fleet.md). */
export const READER = {
  namespace: 'kube-system',
  name: 'k8s-health-reader',
  token: 'k8s-health-reader-token',
} as const;

export interface EnrollTarget {
  /** The bot's name of the cluster (for messages). */
  name: string;
  /** The Cluster object's namespace and name in the management cluster. */
  namespace: string;
  clusterName: string;
}

export interface EnrollResult {
  /** What was done, one line each (created / updated / kept). */
  steps: string[];
  /** The stored Secret, as `namespace/name`. */
  secret: string;
  /** Nodes the new read-only credential could list (the check that it works). */
  nodesVisible: number;
}

/**
 * The read-only rules of the bot in a workload cluster, derived from the kinds the collector reads
 * (cluster/kinds.ts: every workload-side kind, get/list/watch) plus the health and discovery paths.
 */
export function readerRules(): {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}[] {
  const byGroup = new Map<string, string[]>();
  for (const k of KINDS)
    if (k.cluster !== 'management') byGroup.set(k.group, [...(byGroup.get(k.group) ?? []), k.plural]);
  return [
    ...[...byGroup.entries()].map(([g, resources]) => ({
      apiGroups: [g],
      resources: [...resources].sort(),
      verbs: ['get', 'list', 'watch'],
    })),
    {
      nonResourceURLs: ['/readyz', '/readyz/*', '/livez', '/healthz', '/version', '/api', '/api/*', '/apis', '/apis/*'],
      verbs: ['get'],
    },
  ];
}

/**
 * `k8s-health enroll` (docs/fleet.md): with an admin credential of the workload cluster, used this once,
 * create a ServiceAccount, a ClusterRole of get/list/watch on exactly what the collectors read, its
 * binding and a token Secret; wait for the token; build a kubeconfig from it; store that as the
 * labelled Secret `<cluster>-k8s-health-kubeconfig` next to the Cluster object in the management
 * cluster once the credential's self reviews prove it read-only and it lists nodes. Idempotent: an
 * existing object that matches is kept; one that does not fails enrollment, or is recreated with `replace`.
 */
export async function enrollCluster(
  target: EnrollTarget,
  admin: KubeConfig,
  management: KubeConfig,
  opts: { tokenWaitMs?: number; timeoutMs?: number; replace?: boolean } = {},
): Promise<EnrollResult> {
  const steps: string[] = [];
  const timeoutMs = opts.timeoutMs ?? 15_000;
  // An object already there is checked, never trusted by its name (describe-reader-mismatch.ts): a
  // mismatch fails naming it, or with --replace the object is deleted and created again.
  const ensure = async (
    what: string,
    path: string,
    body: { kind: string; metadata: { name: string; [k: string]: unknown } } & Record<string, unknown>,
  ) => {
    try {
      await sendKube(admin, { method: 'POST', path, body }, timeoutMs);
      return void steps.push(`created ${what}`);
    } catch (err) {
      if (!(err instanceof KubeCallError && err.status === 409)) throw err;
    }
    const at = `${path}/${body.metadata.name}`;
    const existing = (await sendKube(admin, { method: 'GET', path: at }, timeoutMs)) as Record<string, unknown>;
    const why = describeReaderMismatch(existing, body);
    if (!why) return void steps.push(`kept ${what} (already there, checked)`);
    if (!opts.replace)
      throw new RemediateError(
        'E_ENROLL_MISMATCH',
        `${what} already exists and ${why}: nothing was stored; inspect it, or run \`k8s-health enroll ${target.name} --replace\` to recreate it`,
      );
    await sendKube(admin, { method: 'DELETE', path: at }, timeoutMs);
    await sendKube(admin, { method: 'POST', path, body }, timeoutMs);
    steps.push(`recreated ${what} (it ${why})`);
  };
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const sa = `/api/v1/namespaces/${READER.namespace}`;
  const rules = readerRules();
  await ensure(`ServiceAccount ${READER.namespace}/${READER.name}`, `${sa}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: READER.name, labels: { 'app.kubernetes.io/managed-by': 'k8s-health' } },
  });
  await ensure(`ClusterRole ${READER.name} (get, list, watch)`, `${rbac}/clusterroles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: READER.name, labels: { 'app.kubernetes.io/managed-by': 'k8s-health' } },
    rules,
  });
  await ensure(`ClusterRoleBinding ${READER.name}`, `${rbac}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: READER.name, labels: { 'app.kubernetes.io/managed-by': 'k8s-health' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: READER.name },
    subjects: [{ kind: 'ServiceAccount', name: READER.name, namespace: READER.namespace }],
  });
  await ensure(`token Secret ${READER.namespace}/${READER.token}`, `${sa}/secrets`, {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/service-account-token',
    metadata: { name: READER.token, annotations: { 'kubernetes.io/service-account.name': READER.name } },
  });

  // The token controller fills the Secret's token shortly after it is created.
  const deadline = Date.now() + (opts.tokenWaitMs ?? 30_000);
  let data: Record<string, string> | undefined;
  for (;;) {
    const s = (await sendKube(admin, { method: 'GET', path: `${sa}/secrets/${READER.token}` }, timeoutMs)) as {
      data?: Record<string, string>;
    };
    if (s?.data?.token) {
      data = s.data;
      break;
    }
    if (Date.now() > deadline)
      throw new RemediateError(
        'E_ENROLL_NO_TOKEN',
        `the token Secret ${READER.namespace}/${READER.token} got no token within ${Math.round((opts.tokenWaitMs ?? 30_000) / 1000)} s: is the token controller running?`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }

  const kubeconfig = buildKubeconfig(
    admin,
    target.name,
    Buffer.from(data.token!, 'base64').toString('utf8'),
    data['ca.crt'],
  );
  // The new credential must work before it is stored: list nodes as the reader.
  const reader = new KubeConfig();
  reader.loadFromString(kubeconfig);
  // Proven read-only by its own self reviews before anything is stored.
  await proveReadOnly(reader, rules, READER.namespace, timeoutMs);
  steps.push("checked: the credential's self reviews show get/list/watch on what the bot reads and nothing more");
  let nodesVisible: number;
  try {
    const nodes = (await sendKube(
      reader,
      { method: 'GET', path: '/api/v1/nodes', query: { limit: '500' } },
      timeoutMs,
    )) as { items?: unknown[] };
    nodesVisible = nodes?.items?.length ?? 0;
  } catch (err) {
    throw new RemediateError(
      'E_ENROLL_CHECK',
      `the read-only credential was created but cannot list nodes: ${(err as Error).message}`,
      { cause: err },
    );
  }
  steps.push(`checked: the read-only credential lists ${nodesVisible} node(s)`);

  const secretName = enrolledSecretName(target.clusterName);
  const secretPath = `/api/v1/namespaces/${encodeURIComponent(target.namespace)}/secrets`;
  const labels = { [ENROLLED_SECRET_LABEL]: 'true', 'cluster.x-k8s.io/cluster-name': target.clusterName };
  const value = Buffer.from(kubeconfig, 'utf8').toString('base64');
  try {
    await sendKube(
      management,
      {
        method: 'POST',
        path: secretPath,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: { name: secretName, labels },
          data: { [KUBECONFIG_KEY]: value },
        },
      },
      timeoutMs,
    );
    steps.push(`stored Secret ${target.namespace}/${secretName} in the management cluster`);
  } catch (err) {
    if (!(err instanceof KubeCallError && err.status === 409)) throw err;
    await sendKube(
      management,
      {
        method: 'PATCH',
        path: `${secretPath}/${secretName}`,
        body: { metadata: { labels }, data: { [KUBECONFIG_KEY]: value } },
        contentType: 'application/merge-patch+json',
      },
      timeoutMs,
    );
    steps.push(`updated Secret ${target.namespace}/${secretName} in the management cluster`);
  }
  return { steps, secret: `${target.namespace}/${secretName}`, nodesVisible };
}

/** A kubeconfig for the reader: the admin context's server and CA (or its skip-TLS setting), the token as user. */
function buildKubeconfig(admin: KubeConfig, name: string, token: string, caFromSecret?: string): string {
  const cluster = admin.getCurrentCluster()!;
  let caData = caFromSecret ?? cluster.caData;
  if (!caData && cluster.caFile) caData = readFileSync(cluster.caFile).toString('base64');
  const kc = new KubeConfig();
  const id = name.replace(/[^A-Za-z0-9-]/g, '-');
  kc.loadFromOptions({
    clusters: [
      {
        name: id,
        server: cluster.server,
        ...(caData ? { caData } : {}),
        ...(cluster.skipTLSVerify ? { skipTLSVerify: true } : {}),
        ...(cluster.tlsServerName ? { tlsServerName: cluster.tlsServerName } : {}),
      },
    ],
    users: [{ name: `${id}-k8s-health-reader`, token }],
    contexts: [{ name: id, cluster: id, user: `${id}-k8s-health-reader` }],
    currentContext: id,
  });
  return kc.exportConfig();
}
