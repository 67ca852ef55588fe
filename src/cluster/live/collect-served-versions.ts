import type { KubeConfig } from '@kubernetes/client-node';
import { toStatusError } from './kube-error.js';
import { requestKube } from './request-kube.js';

/** API group ('' = core) → versions the server serves. */
export type ServedVersions = Map<string, string[]>;

/**
 * Discovery: which group/versions the API server serves (`/api` and `/apis`), read once per
 * collection so each kind can pick the first of its KINDS versions that is served, and an absent
 * optional CRD (TanzuKubernetesCluster on plain CAPI) is known without a failing list call.
 */
export async function collectServedVersions(kc: KubeConfig, timeoutMs?: number): Promise<ServedVersions> {
  const out: ServedVersions = new Map();
  const core = await requestKube(kc, '/api', {}, timeoutMs);
  if (core.status !== 200) throw toStatusError(core.status, core.body, 'read API discovery /api');
  out.set('', (JSON.parse(core.body) as { versions?: string[] }).versions ?? []);
  const apis = await requestKube(kc, '/apis', {}, timeoutMs);
  if (apis.status !== 200) throw toStatusError(apis.status, apis.body, 'read API discovery /apis');
  const groups =
    (JSON.parse(apis.body) as { groups?: { name: string; versions?: { version: string }[] }[] }).groups ?? [];
  for (const g of groups)
    out.set(
      g.name,
      (g.versions ?? []).map((v) => v.version),
    );
  return out;
}
