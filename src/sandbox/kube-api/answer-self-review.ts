import { AUTHENTICATED_RULES, rulesAllow, type Rule } from './create-access-control.js';

const REVIEWS = '/apis/authorization.k8s.io/v1/';

/**
 * kube-apiserver's answer to a SelfSubjectRulesReview or SelfSubjectAccessReview POST, from the fake's
 * RBAC model: `rules` are what the caller holds (undefined: the admin, who holds `*`). With
 * `incomplete`, the rules review answers as an API server whose webhook authorizer cannot list rules:
 * only the default rules, `incomplete: true` and an evaluation error; the access review still answers
 * from every rule. Undefined when the path is not a self review.
 */
export function answerSelfReview(
  pathname: string,
  body: string,
  rules: readonly Rule[] | undefined,
  incomplete: boolean,
): { status: number; body: unknown } | undefined {
  if (!pathname.startsWith(REVIEWS)) return undefined;
  const kind = pathname.slice(REVIEWS.length);
  if (kind !== 'selfsubjectrulesreviews' && kind !== 'selfsubjectaccessreviews') return undefined;
  let spec: Record<string, unknown>;
  try {
    spec = (JSON.parse(body) as { spec?: Record<string, unknown> }).spec ?? {};
  } catch {
    return {
      status: 400,
      body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the request body is not JSON', code: 400 },
    };
  }
  const all: readonly Rule[] = rules ?? [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ];
  const head = { apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec };
  if (kind === 'selfsubjectrulesreviews') {
    const shown = incomplete ? AUTHENTICATED_RULES : all;
    return {
      status: 201,
      body: {
        ...head,
        kind: 'SelfSubjectRulesReview',
        status: {
          resourceRules: shown
            .filter((r) => r.resources)
            .map((r) => ({ verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [] })),
          nonResourceRules: shown
            .filter((r) => r.nonResourceURLs)
            .map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] })),
          incomplete,
          ...(incomplete ? { evaluationError: 'webhook authorizer does not support user rule resolution' } : {}),
        },
      },
    };
  }
  const attrs = (spec.resourceAttributes ?? {}) as {
    verb?: string;
    group?: string;
    resource?: string;
    subresource?: string;
  };
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : (attrs.resource ?? '');
  const allowed = rulesAllow(all, attrs.verb ?? '', attrs.group ?? '', resource);
  return {
    status: 201,
    body: {
      ...head,
      kind: 'SelfSubjectAccessReview',
      status: { allowed, ...(allowed ? { reason: 'RBAC: allowed' } : {}) },
    },
  };
}
