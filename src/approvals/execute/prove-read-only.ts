import type { KubeConfig } from '@kubernetes/client-node';
import { RemediateError } from '../remediate-error.js';
import { sendKube } from './send-kube.js';

interface ReaderRule {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

const READ_VERBS = ['get', 'list', 'watch'];
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'];
/** Creates every authenticated user may make (kube-apiserver's system:basic-user): they write nothing. */
const SELF_REVIEWS = new Set([
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authentication.k8s.io/selfsubjectreviews',
]);
/** Asked of a webhook-authorized cluster besides the reader's own kinds: what an attacker's credential would want. */
const SENSITIVE = [
  { group: '', resource: 'secrets' },
  { group: '', resource: 'serviceaccounts/token' },
  { group: '', resource: 'pods/exec' },
  { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
  { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' },
  { group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
  { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' },
];

/**
 * Prove, as the credential itself, that it is read-only before anything stores it: its
 * SelfSubjectRulesReview (cluster-wide rules plus those of `namespace`) may hold get/list/watch on
 * the `allowed` resources, get on non-resource paths, and the self-review creates — nothing else.
 * Where the review says `incomplete` (an authorizer that cannot list rules), each write verb on each
 * allowed and sensitive resource, and get/list on Secrets, is asked with a SelfSubjectAccessReview.
 * Throws E_ENROLL_NOT_READ_ONLY naming the extra permissions.
 */
export async function proveReadOnly(
  reader: KubeConfig,
  allowed: ReaderRule[],
  namespace: string,
  timeoutMs: number,
): Promise<void> {
  const readable = new Set<string>();
  for (const r of allowed)
    for (const g of r.apiGroups ?? []) for (const res of r.resources ?? []) readable.add(`${g}/${res}`);
  const review = (await sendKube(
    reader,
    {
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } },
    },
    timeoutMs,
  )) as {
    status?: {
      resourceRules?: { verbs?: string[]; apiGroups?: string[]; resources?: string[] }[];
      nonResourceRules?: { verbs?: string[]; nonResourceURLs?: string[] }[];
      incomplete?: boolean;
    };
  };
  const extra = new Set<string>();
  for (const r of review?.status?.resourceRules ?? []) {
    for (const verb of r.verbs ?? []) {
      for (const g of r.apiGroups ?? []) {
        for (const res of r.resources ?? []) {
          const key = `${g}/${res}`;
          const ok =
            g !== '*' &&
            res !== '*' &&
            ((READ_VERBS.includes(verb) && readable.has(key)) || (verb === 'create' && SELF_REVIEWS.has(key)));
          if (!ok) extra.add(`${verb} ${res}${g ? `.${g}` : ''}`);
        }
      }
    }
  }
  for (const r of review?.status?.nonResourceRules ?? [])
    for (const verb of r.verbs ?? [])
      if (verb !== 'get') for (const u of r.nonResourceURLs ?? []) extra.add(`${verb} ${u}`);

  if (review?.status?.incomplete) {
    const targets = [
      ...[...readable].map((k) => ({ group: k.slice(0, k.indexOf('/')), resource: k.slice(k.indexOf('/') + 1) })),
      ...SENSITIVE,
    ];
    const asks = targets.flatMap((t) => WRITE_VERBS.map((verb) => ({ ...t, verb })));
    asks.push({ group: '', resource: 'secrets', verb: 'get' }, { group: '', resource: 'secrets', verb: 'list' });
    for (const a of asks) {
      const [resource, subresource] = a.resource.split('/');
      const r = (await sendKube(
        reader,
        {
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: {
              resourceAttributes: { verb: a.verb, group: a.group, resource, ...(subresource ? { subresource } : {}) },
            },
          },
        },
        timeoutMs,
      )) as { status?: { allowed?: boolean } };
      if (r?.status?.allowed) extra.add(`${a.verb} ${a.resource}${a.group ? `.${a.group}` : ''}`);
    }
  }
  if (extra.size) {
    const list = [...extra].sort();
    const shown = list.slice(0, 6).join(', ') + (list.length > 6 ? ` and ${list.length - 6} more` : '');
    throw new RemediateError(
      'E_ENROLL_NOT_READ_ONLY',
      `the reader credential is not read-only: it may ${shown}; nothing was stored (remove the extra bindings to the reader's ServiceAccount)`,
    );
  }
}
