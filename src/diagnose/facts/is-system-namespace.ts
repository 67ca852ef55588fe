/**
 * Namespaces of the platform itself (seed S2: only customer workloads may be scaled down;
 * seed S3: the namespaces third-party webhooks must exclude).
 */
export function isSystemNamespace(ns: string): boolean {
  return (
    /^(kube-|vmware-system-|svc-tkg-|tanzu-|capi-|capv-|cert-manager|antrea|calico|tigera-|tkg-)/.test(ns) ||
    [
      'kube-system',
      'tkg-system',
      'secretgen-controller',
      'avi-system',
      'pinniped-concierge',
      'pinniped-supervisor',
      'kapp-controller',
    ].includes(ns)
  );
}
