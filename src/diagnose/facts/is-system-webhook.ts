import type { KubeObject } from '../../cluster/snapshot.js';
import { isSystemNamespace } from './is-system-namespace.js';
import type { RawWebhook } from './raw-webhook.js';

/**
 * Namespaces a third-party admission webhook must leave alone (seed 003 "Future Considerations":
 * integral to VKS/TKG cluster lifecycle). `*` is a prefix wildcard. The proactive check
 * webhook.system-namespaces-not-excluded tests every webhook against these.
 */
export const SYSTEM_NAMESPACES: readonly string[] = [
  'kube-system',
  'vmware-system-*',
  'tkg-system',
  'secretgen-controller',
  'svc-tkg-*',
];

/** Where system (platform, CNI, Cluster API) webhook services live: never suspended. */
const SYSTEM_SERVICE_NAMESPACE =
  /^(kube-system|tkg-system|secretgen-controller|vmware-system-.*|svc-tkg-.*|capi-.*|capv-.*|.*-capi-system|tanzu-.*|antrea-.*|calico-.*|tigera-.*)$/;
/**
 * Webhook / configuration names of the platform itself: antrea, calico, *.antrea.io, *.tanzu.vmware.com, *.x-k8s.io.
 */
const SYSTEM_NAME =
  /(^|[.-])(antrea|calico|tigera)([.-]|$)|\.antrea\.io$|\.tanzu\.vmware\.com$|\.vmware\.com$|\.x-k8s\.io$|^(capi|capv|kcp|cabpk)-/;

/**
 * Seed rule (003, docs/design.md): only third-party webhooks may ever be suspended. A configuration is a
 * system one when its name, any of its webhooks' names, or any webhook's service (name or namespace)
 * belongs to the platform, the CNI (antrea, calico) or Cluster API. Erring towards "system" is the
 * safe side: a false "system" only withholds a button, a false "third-party" could break the cluster.
 */
export function isSystemWebhook(config: KubeObject): boolean {
  const name = config.metadata?.name ?? '';
  if (SYSTEM_NAME.test(name)) return true;
  const labels = config.metadata?.labels ?? {};
  for (const v of Object.values(labels)) if (typeof v === 'string' && /^(antrea|calico|tigera)$/.test(v)) return true;
  const hooks: unknown[] = Array.isArray(config.webhooks) ? config.webhooks : [];
  for (const raw of hooks) {
    const h = (raw ?? {}) as RawWebhook;
    if (typeof h.name === 'string' && SYSTEM_NAME.test(h.name)) return true;
    const svc = h.clientConfig?.service;
    if (svc && typeof svc === 'object') {
      const ns = svc.namespace;
      if (
        typeof ns === 'string' &&
        (SYSTEM_SERVICE_NAMESPACE.test(ns) ||
          isSystemNamespace(ns) ||
          SYSTEM_NAMESPACES.some((p) => (p.endsWith('*') ? ns.startsWith(p.slice(0, -1)) : ns === p)))
      )
        return true;
      if (typeof svc.name === 'string' && SYSTEM_NAME.test(svc.name)) return true;
    }
    const url = h.clientConfig?.url;
    if (typeof url === 'string' && /antrea|calico|\.x-k8s\.io|vmware/.test(url)) return true;
  }
  return false;
}
