/** A Kubernetes `Status` body, as kube-apiserver returns it on errors (clients read `.reason`/`.code`). */
export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string };
  code: number;
}

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** A failure Status with the reason kube-apiserver uses for that HTTP code. */
export function createKubeStatus(code: number, message: string, details?: KubeStatus['details']): KubeStatus {
  const status: KubeStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: REASONS[code] ?? (code >= 500 ? 'InternalError' : 'BadRequest'),
    code,
  };
  if (details) status.details = details;
  return status;
}

/** The message kube-apiserver's authorizer writes for a denied request (what RBAC users see). */
export function forbiddenMessage(
  verb: string,
  group: string,
  plural: string,
  namespace?: string,
  name?: string,
): string {
  const what = group ? `${plural}.${group}` : plural;
  const named = name ? ` "${name}"` : '';
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  return `${what}${named} is forbidden: User "system:serviceaccount:k8s-health:k8s-health-bot" cannot ${verb} resource "${plural}" in API group "${group}" ${scope}`;
}
