import { canonicalJson } from '../canonical-json.js';

/** The fields of the reader's objects (ServiceAccount, ClusterRole, binding, token Secret) compared here. */
interface ReaderObject {
  kind?: string;
  type?: string;
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  rules?: unknown;
  aggregationRule?: unknown;
  roleRef?: { kind?: string; name?: string; apiGroup?: string };
  subjects?: unknown;
}

/**
 * Why an object `enroll` found already there is not the one it would create, or undefined when it is:
 * an existing object is never trusted by its name. The ServiceAccount must carry the managed-by label
 * enroll sets; the ClusterRole must hold exactly the reader's rules and no aggregation; the binding
 * must tie exactly that role to exactly the reader's ServiceAccount; the token Secret must be a
 * service-account token of that ServiceAccount.
 */
export function describeReaderMismatch(
  existingObject: Record<string, unknown>,
  wantedObject: Record<string, unknown>,
): string | undefined {
  const existing = existingObject as ReaderObject;
  const wanted = wantedObject as ReaderObject;
  const kind = wanted.kind;
  if (kind === 'ServiceAccount') {
    return existing.metadata?.labels?.['app.kubernetes.io/managed-by'] === 'k8s-health'
      ? undefined
      : 'lacks the label app.kubernetes.io/managed-by=k8s-health (made by someone else)';
  }
  if (kind === 'ClusterRole') {
    if (existing.aggregationRule) return 'has an aggregationRule (its rules come from other roles)';
    return canonicalJson(existing.rules ?? []) === canonicalJson(wanted.rules)
      ? undefined
      : 'holds other rules than get/list/watch on what the bot reads';
  }
  if (kind === 'ClusterRoleBinding') {
    const ref = existing.roleRef ?? {};
    if (ref.kind !== 'ClusterRole' || ref.name !== wanted.roleRef?.name || ref.apiGroup !== wanted.roleRef?.apiGroup)
      return `binds ${ref.kind ?? '?'} ${ref.name ?? '?'}, not ClusterRole ${wanted.roleRef?.name}`;
    return canonicalJson(existing.subjects ?? []) === canonicalJson(wanted.subjects)
      ? undefined
      : 'binds other subjects than the reader ServiceAccount';
  }
  if (kind === 'Secret') {
    const sa = existing.metadata?.annotations?.['kubernetes.io/service-account.name'];
    if (existing.type !== wanted.type) return `is of type ${existing.type ?? '(none)'}, not ${wanted.type}`;
    return sa === wanted.metadata?.annotations?.['kubernetes.io/service-account.name']
      ? undefined
      : `holds the token of ServiceAccount ${sa ?? '(none)'}`;
  }
  return undefined;
}
