import { chooseCapiCluster } from '../../cluster/choose-capi-cluster.js';
import { createEmptySnapshot, type KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../execute/action-context.js';
import type { RbacNeed } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import { isNotFound, sendKube } from '../execute/send-kube.js';

const CLUSTER_LABEL = 'cluster.x-k8s.io/cluster-name';
const CAPI_VERSIONS = ['v1beta2', 'v1beta1'];

/** What the check reads on the management cluster (part of the annotate actions' rbac). */
export const CLUSTERS_READ: RbacNeed = { group: 'cluster.x-k8s.io', resource: 'clusters', verbs: ['list'] };

/** The Cluster each context stands for, read once per context (plan, dry run and execution share it). */
const chosen = new WeakMap<ActionContext, Promise<{ name?: string; alone: boolean }>>();

/**
 * Refuse a management-side target (a Machine, a MachineHealthCheck) that is not of the cluster the fix
 * was proposed for: Cluster API keeps many clusters in one namespace, and a fix proposed in one
 * cluster's thread, approved by its approvers, must never act on a neighbour's object. The object's
 * own `cluster.x-k8s.io/cluster-name` label or `spec.clusterName` decides; without either it passes
 * only when the namespace holds no other Cluster.
 */
export async function checkTargetCluster(ctx: ActionContext, obj: KubeObject, what: string): Promise<void> {
  const own = clusterOf(obj);
  let p = chosen.get(ctx);
  if (!p) {
    p = resolve(ctx);
    chosen.set(ctx, p);
  }
  const expected = await p;
  if (own !== undefined && expected.name !== undefined && own !== expected.name) {
    throw new RemediateError(
      'E_REMEDIATE_OTHER_CLUSTER',
      `${what} belongs to cluster ${own}, not to ${expected.name} (cluster ${ctx.cluster.name}): refused, nothing was changed`,
    );
  }
  if (own === undefined && !expected.alone) {
    throw new RemediateError(
      'E_REMEDIATE_OTHER_CLUSTER',
      `${what} names no cluster (no ${CLUSTER_LABEL} label, no spec.clusterName) and its namespace holds several Clusters: refused, nothing was changed`,
    );
  }
}

/** The cluster an object says it belongs to. */
export function clusterOf(obj: KubeObject): string | undefined {
  const label = obj.metadata?.labels?.[CLUSTER_LABEL];
  if (typeof label === 'string' && label) return label;
  const spec = obj.spec?.clusterName;
  return typeof spec === 'string' && spec ? spec : undefined;
}

async function resolve(ctx: ActionContext): Promise<{ name?: string; alone: boolean }> {
  const snapshot = createEmptySnapshot(ctx.cluster.name, '', 'live');
  snapshot.capi.clusters = await listClusters(ctx);
  const ref = chooseCapiCluster(snapshot, {
    configured: ctx.cluster.management?.clusterName,
    discovered: ctx.cluster.fleet?.clusterName,
    hints: [ctx.cluster.name],
    what: `cluster ${ctx.cluster.name}`,
    fix: 'set management.clusterName to the Cluster this cluster is (docs/fleet.md "Scoping")',
  });
  return { name: ref?.name, alone: snapshot.capi.clusters.every((c) => c.metadata.name === ref?.name) };
}

async function listClusters(ctx: ActionContext): Promise<KubeObject[]> {
  const ns = ctx.capiNamespace ? `/namespaces/${encodeURIComponent(ctx.capiNamespace)}` : '';
  for (const v of CAPI_VERSIONS) {
    try {
      const list = await sendKube(ctx.management, { method: 'GET', path: `/apis/cluster.x-k8s.io/${v}${ns}/clusters` });
      return (list?.items ?? []) as KubeObject[];
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return [];
}
