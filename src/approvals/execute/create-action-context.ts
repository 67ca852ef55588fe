import { loadEtcdTls } from '../../cluster/etcd/load-etcd-tls.js';
import { loadKubeConfig } from '../../cluster/live/load-kube-config.js';
import type { ClusterConfig } from '../../config/config-schema.js';
import type { ActionContext } from './action-context.js';
import { RemediateError } from '../remediate-error.js';

/**
 * The live access of one configured cluster. A dump-backed cluster has none and can never be
 * remediated (docs/design.md): asking for it is an error, never a silent no-op.
 */
export async function createActionContext(cluster: ClusterConfig): Promise<ActionContext> {
  if (cluster.dump || !cluster.workload) {
    throw new RemediateError(
      'E_REMEDIATE_NOT_ALLOWED',
      `cluster ${cluster.name} is dump-backed (read-only): it can never be remediated`,
    );
  }
  const workload = loadKubeConfig(cluster.workload);
  const management = cluster.management ? loadKubeConfig(cluster.management) : workload;
  let etcd: ActionContext['etcd'];
  if (cluster.etcd) {
    const { tls, partial } = await loadEtcdTls(cluster.etcd);
    if (partial.length) throw new RemediateError('E_REMEDIATE_ETCD', partial.map((p) => p.error).join('; '));
    etcd = { endpoints: cluster.etcd.endpoints, tls, timeoutMs: cluster.etcd.timeoutMs };
  }
  return { cluster, workload, management, capiNamespace: cluster.management?.namespace, etcd };
}
