import type { KubeConfig } from '@kubernetes/client-node';
import type { EtcdTlsMaterial } from '../../cluster/etcd/create-etcd-client.js';
import type { KubeObject } from '../../cluster/snapshot.js';
import type { ClusterConfig } from '../../config/config-schema.js';
import type { OpenedBackup } from './seal-backup.js';

/** How approvals/ reaches one live cluster (built by createActionContext, or by a test). */
export interface ActionContext {
  cluster: ClusterConfig;
  /** The workload cluster's API server. */
  workload: KubeConfig;
  /** The Cluster API management cluster (default: the workload cluster itself). */
  management: KubeConfig;
  /** CAPI namespace on the management cluster (undefined: all namespaces). */
  capiNamespace?: string;
  etcd?: { endpoints: string[]; tls?: EtcdTlsMaterial; timeoutMs: number };
  /**
   * The backup stored by an earlier request (webhook.restore reads the one of the suspend it undoes):
   * undefined when there is none; throws E_REMEDIATE_BACKUP when its seal does not verify.
   */
  loadBackup?: (requestId: string) => Promise<OpenedBackup | undefined>;
}

/** What execute() may do besides calling the cluster. */
export interface ExecuteIo {
  /** Store the full object in Redis (and the thread) BEFORE it is deleted or changed. */
  saveBackup(what: string, object: KubeObject): Promise<void>;
  /** The approval request being executed (undo proposals point back at it). */
  requestId: string;
}
