/**
 * The BullMQ workers one process can run (`k8s-health worker --only …`). They are split so that each
 * can run under the credentials it needs and no more (docs/security.md "The Helm chart"): scan
 * reads clusters, remediate writes them, notify and expiry only talk to Slack and Redis.
 */
export const WORKER_KINDS = [
  /**
   * Scheduled and requested cluster scans (`k8s-health-scan`); also keeps the per-cluster schedulers and watch caches.
   */
  'scan',
  /** Alert thread posts (`k8s-health-notify`). */
  'notify',
  /**
   * Approved remediations (`k8s-health-remediate`) and fix proposals (`k8s-health-propose`: the plan
   * and its server-side dry run): the only worker that writes to a cluster, or may be asked to.
   */
  'remediate',
  /** The approval expiry sweep (`k8s-health-approvals`, scheduler `approvals-expiry`). */
  'expiry',
  /**
   * Prometheus alerts from Alertmanager (`k8s-health-alerts`), shown under their root cause; talks to Slack and Redis
   * only.
   */
  'alerts',
] as const;

/** One of {@link WORKER_KINDS}. */
export type WorkerKind = (typeof WORKER_KINDS)[number];
