import type { RemediationPlan } from '../../approvals/remediation-plan.js';

/** What a plan writes: each object once, and the namespaces they are in. */
export interface BlastRadius {
  /** "deployments kube-system/coredns", "validatingwebhookconfigurations kyverno-cfg", "the etcd cluster's members". */
  objects: string[];
  /** Namespaces of the namespaced objects, sorted; cluster-scoped objects add none. */
  namespaces: string[];
  /** Some write is to a cluster-scoped object (or to etcd itself). */
  clusterScoped: boolean;
}

const KUBE_PATH =
  /^(POST|PUT|PATCH|DELETE)\s+\/(?:api\/v1|apis\/[^/\s]+\/[^/\s]+)\/(?:namespaces\/([^/\s?]+)\/)?([a-z0-9.-]+)(?:\/([^/\s?]+))?/;

/**
 * The blast radius of a frozen plan, from its API calls: every Kubernetes write (reads such
 * as the backup GET are not counted) names its object and namespace; an etcd call touches the etcd
 * cluster. The calls are ours (built by the catalog actions from validated params), yet the caller
 * still neutralizes the result like all plan text.
 */
export function describeBlastRadius(plan: Pick<RemediationPlan, 'apiCalls'>): BlastRadius {
  const objects = new Set<string>();
  const namespaces = new Set<string>();
  let clusterScoped = false;
  for (const call of plan.apiCalls) {
    if (call.startsWith('etcd ')) {
      objects.add("the etcd cluster's membership");
      clusterScoped = true;
      continue;
    }
    const m = KUBE_PATH.exec(call);
    if (!m) continue;
    const [, , ns, resource, name] = m;
    const what = name
      ? `${resource} ${ns ? `${ns}/` : ''}${name}`
      : `a new object in ${resource}${ns ? ` of ${ns}` : ''}`;
    objects.add(what);
    if (ns) namespaces.add(ns);
    else clusterScoped = true;
  }
  return { objects: [...objects], namespaces: [...namespaces].sort(), clusterScoped };
}

/** "1 object, cluster-scoped: …" / "2 objects in 1 namespace (kube-system): …" / "nothing is written". */
export function blastRadiusLine(r: BlastRadius): string {
  if (r.objects.length === 0) return 'nothing is written';
  const n = r.objects.length;
  const where = [
    r.namespaces.length > 0
      ? `in ${r.namespaces.length} namespace${r.namespaces.length === 1 ? '' : 's'} (${r.namespaces.join(', ')})`
      : '',
    r.clusterScoped ? 'cluster-scoped' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `${n} object${n === 1 ? '' : 's'} ${where}: ${r.objects.join('; ')}`;
}
