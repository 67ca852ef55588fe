import type { DumpLayout } from './dump-layout.js';
import { kindFromFileName } from './kind-from-name.js';

/**
 * `k8s-health dump` (README "Dump format"): one file per kind named after it
 * (`machines.cluster.x-k8s.io.yaml`), DIR/workload/ and DIR/management/ for the two clusters, and
 * beside them DIR/meta.json (collection metadata), DIR/etcd/ (etcdctl output) and
 * DIR/apiserver/readyz.txt (a raw `/readyz?verbose` body), read apart.
 */
export const ownDumpLayout: DumpLayout = {
  name: 'k8s-health dump',
  reserved: ['meta.json', 'etcd', 'apiserver', 'workload', 'management'],
  kindFromPath: kindFromFileName,
};
