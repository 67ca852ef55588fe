/**
 * The compact fingerprint of a cluster at one scan ("what changed"): per object only what
 * tells a change an SRE cares about — identity (uid: replaced or recreated), spec generation, container
 * images, replicas, versions, and a digest of webhook rules — never whole objects, so it stays small
 * enough to keep one per cluster in Redis.
 */

/** Kinds the fingerprint follows, in the order changes of equal rank are listed. */
export const FINGERPRINT_KINDS = [
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'CustomResourceDefinition',
  'Deployment',
  'DaemonSet',
  'StatefulSet',
  'PodDisruptionBudget',
  'KubeadmControlPlane',
  'MachineDeployment',
  'MachineHealthCheck',
  'Machine',
  'Node',
] as const;
export type FingerprintKind = (typeof FINGERPRINT_KINDS)[number];

/** One object as the fingerprint keeps it. */
export interface ObjectPrint {
  kind: FingerprintKind;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  /** Container images (Deployment, DaemonSet, StatefulSet), sorted, at most a few. */
  images?: string[];
  /** spec.replicas (Deployment, StatefulSet, KubeadmControlPlane, MachineDeployment). */
  replicas?: number;
  /** Kubernetes version (KubeadmControlPlane, MachineDeployment, Machine). */
  version?: string;
  /**
   * Webhook configurations: one line per webhook with what decides what it intercepts and how it
   * fails (`name failurePolicy rules namespaceSelector objectSelector service`), never the caBundle
   * (cert rotation is not a change of behaviour).
   */
  rules?: string[];
  /** Whether one of its webhooks intercepts Pod creation (ranks it first when pods are refused). */
  coversPods?: boolean;
}

/** A cluster's fingerprint at one scan. */
export interface ClusterFingerprint {
  cluster: string;
  /** Capture time of the scan it was taken from (ISO). */
  at: string;
  objects: ObjectPrint[];
  /** Objects left out to stay within the size bound (0 normally). */
  truncated?: number;
}

/** One change since the last healthy scan, ranked by how close it is to what is failing now. */
export interface ClusterChange {
  kind: FingerprintKind;
  namespace?: string;
  name: string;
  /** What happened: added, removed, replaced (same name, new uid), scaled, re-imaged, rules changed, … */
  change:
    'added' | 'removed' | 'replaced' | 'scaled' | 're-imaged' | 'rules-changed' | 'version-changed' | 'spec-changed';
  /** "replicas 3 → 0", "image ghcr.io/kyverno/kyverno:v1.10.0 → …:v1.11.0". */
  detail: string;
  /**
   * 0 = on the failing path (named by a finding, or a webhook on pods while pods are refused), 1 = same area, 2 =
   * elsewhere.
   */
  rank: 0 | 1 | 2;
  /** Why it ranks there, when it is 0 or 1. */
  why?: string;
}

/** The report's "changed since last healthy" block (JSON field `changedSinceHealthy`). */
export interface ChangesSinceHealthy {
  /** Capture time of the last healthy scan the changes are counted from. */
  baselineAt: string;
  changes: ClusterChange[];
  /** Changes not listed (bounded list). */
  more?: number;
}
