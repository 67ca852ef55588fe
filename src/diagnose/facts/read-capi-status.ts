import type { KubeObject } from '../../cluster/snapshot.js';
import { findCondition, type Condition } from './find-condition.js';
import { parseGoDuration } from './parse-go-duration.js';

/** The CAPI API version an object's status follows. */
export type CapiApiVersion = 'v1beta2' | 'v1beta1';

/** Replica counters of a KubeadmControlPlane, MachineDeployment or MachineSet, whatever version served them. */
export interface CapiReplicas {
  /** spec.replicas */
  desired?: number;
  /** status.replicas */
  current?: number;
  /** Machines Ready (v1beta2 Ready condition; v1beta1 readyReplicas). */
  ready?: number;
  /**
   * Machines Available (v1beta2 availableReplicas; v1beta1 MD availableReplicas, KCP replicas − unavailableReplicas).
   */
  available?: number;
  /** Machines up to date with the spec (v1beta2 upToDateReplicas; v1beta1 updatedReplicas). */
  upToDate?: number;
  /** Where ready/available/upToDate were read: the v1beta2 fields (preferred), the v1beta1 ones, or none. */
  from: 'v1beta2' | 'v1beta1' | 'none';
}

/** KubeadmControlPlane status.lastRemediation: the last machine KCP remediated and the retry count it reached. */
export interface CapiLastRemediation {
  machine?: string;
  time?: string;
  retryCount?: number;
}

/** KubeadmControlPlane remediation limits (v1beta2 spec.remediation, v1beta1 spec.remediationStrategy). */
export interface CapiRemediationLimits {
  /** Unset = KCP retries forever. */
  maxRetry?: number;
  /** Unset = a retry may happen at once. */
  retryPeriodSeconds?: number;
  /** Failures after this long since the previous remediation are not retries (default 1h). */
  minHealthyPeriodSeconds: number;
}

/** The status of any Cluster API object, read once the same way for v1beta2 and v1beta1. */
export interface CapiStatus {
  apiVersion: CapiApiVersion;
  replicas: CapiReplicas;
  /** The condition of that type, v1beta2 shapes first (see findCondition). */
  condition(type: string): Condition | undefined;
  /** KubeadmControlPlane status.lastRemediation (v1beta2; v1beta1 since CAPI 1.4). */
  lastRemediation?: CapiLastRemediation;
  /** KubeadmControlPlane only. */
  remediationLimits?: CapiRemediationLimits;
  /** v1beta2 status.initialization.controlPlaneInitialized, v1beta1 status.initialized. */
  initialized?: boolean;
  /**
   * Cluster only: what Cluster API counts of its control plane and of its workers (MachineDeployments
   * and MachinePools) — v1beta2 status.controlPlane / status.workers, status.v1beta2.controlPlane /
   * workers when a CAPI v1.9/v1.10 controller serves it as v1beta1. Older Clusters carry no counts.
   */
  controlPlane?: CapiReplicas;
  workers?: CapiReplicas;
}

/** KCP's default minHealthyPeriod (CAPI API docs: "If not set, this value is defaulted to 1h"). */
export const DEFAULT_MIN_HEALTHY_PERIOD_SECONDS = 3600;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The one place that reads Cluster API status across API versions (defect class 4).
 *
 * v1beta2 is the storage version since CAPI v1.11 (v1beta1 goes away in 2027): its counters are
 * status.readyReplicas / availableReplicas / upToDateReplicas and the old ones moved to
 * status.deprecated.v1beta1. A v1beta1 object served by a v1.9/v1.10 controller carries the new
 * ones under status.v1beta2. So: v1beta2 fields first (wherever the version keeps them), v1beta1
 * fields as the fallback. A counter the object does not carry stays undefined — never 0, so a
 * report never says "0 of 3 Ready" for a count it did not read.
 */
export function readCapiStatus(obj: KubeObject): CapiStatus {
  const spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {};
  const status = obj.status && typeof obj.status === 'object' ? obj.status : {};
  const apiVersion = versionOf(obj);
  const legacy = apiVersion === 'v1beta2' ? (status.deprecated?.v1beta1 ?? {}) : status;
  const modern = apiVersion === 'v1beta2' ? status : (status.v1beta2 ?? {});

  const newReady = num(modern.readyReplicas);
  const newAvailable = num(modern.availableReplicas);
  const newUpToDate = num(modern.upToDateReplicas);
  const current = num(status.replicas);
  const oldUnavailable = num(legacy.unavailableReplicas);
  const oldAvailable =
    num(legacy.availableReplicas) ??
    (current !== undefined && oldUnavailable !== undefined ? current - oldUnavailable : undefined);
  const replicas: CapiReplicas = {
    desired: num(spec.replicas),
    current,
    ready: newReady ?? num(legacy.readyReplicas),
    available: newAvailable ?? oldAvailable,
    upToDate: newUpToDate ?? num(legacy.updatedReplicas),
    from:
      newReady !== undefined || newAvailable !== undefined || newUpToDate !== undefined
        ? 'v1beta2'
        : num(legacy.readyReplicas) !== undefined || num(legacy.updatedReplicas) !== undefined
          ? 'v1beta1'
          : 'none',
  };

  const out: CapiStatus = { apiVersion, replicas, condition: (type) => findCondition(obj, type) };
  const last = status.lastRemediation;
  if (last && typeof last === 'object') {
    out.lastRemediation = {
      machine: typeof last.machine === 'string' ? last.machine : undefined,
      time: typeof last.time === 'string' ? last.time : typeof last.timestamp === 'string' ? last.timestamp : undefined,
      retryCount: num(last.retryCount),
    };
  }
  if (obj.kind === 'KubeadmControlPlane') out.remediationLimits = readRemediationLimits(spec);
  const init = status.initialization?.controlPlaneInitialized ?? status.initialized;
  if (typeof init === 'boolean') out.initialized = init;
  if (obj.kind === 'Cluster') {
    const controlPlane = readClusterCounts(modern.controlPlane);
    const workers = readClusterCounts(modern.workers);
    if (controlPlane) out.controlPlane = controlPlane;
    if (workers) out.workers = workers;
  }
  return out;
}

/** A Cluster's status.controlPlane or status.workers (v1beta2 field names), undefined when it counts nothing. */
function readClusterCounts(v: unknown): CapiReplicas | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const c = v as Record<string, unknown>;
  const counts: CapiReplicas = {
    desired: num(c.desiredReplicas),
    current: num(c.replicas),
    ready: num(c.readyReplicas),
    available: num(c.availableReplicas),
    upToDate: num(c.upToDateReplicas),
    from: 'v1beta2',
  };
  return [counts.desired, counts.current, counts.ready, counts.available, counts.upToDate].some((n) => n !== undefined)
    ? counts
    : undefined;
}

/**
 * apiVersion decides; a dump without apiVersion (hand-made, or a `kubectl describe` turned into YAML)
 * is v1beta2 when it carries v1beta2-only fields (status.deprecated, upToDateReplicas, checks).
 */
function versionOf(obj: KubeObject): CapiApiVersion {
  if (typeof obj.apiVersion === 'string') {
    if (obj.apiVersion.endsWith('/v1beta2')) return 'v1beta2';
    if (
      obj.apiVersion.endsWith('/v1beta1') ||
      obj.apiVersion.endsWith('/v1alpha4') ||
      obj.apiVersion.endsWith('/v1alpha3')
    )
      return 'v1beta1';
  }
  const status = obj.status ?? {};
  if (status.deprecated?.v1beta1 || status.upToDateReplicas !== undefined || obj.spec?.checks) return 'v1beta2';
  return 'v1beta1';
}

function readRemediationLimits(spec: Record<string, unknown>): CapiRemediationLimits {
  const v2 = (spec.remediation ?? {}) as Record<string, unknown>;
  const v1 = (spec.remediationStrategy ?? {}) as Record<string, unknown>;
  const limits: CapiRemediationLimits = {
    minHealthyPeriodSeconds:
      num(v2.minHealthyPeriodSeconds) ?? parseGoDuration(v1.minHealthyPeriod) ?? DEFAULT_MIN_HEALTHY_PERIOD_SECONDS,
  };
  const maxRetry = num(v2.maxRetry) ?? num(v1.maxRetry);
  if (maxRetry !== undefined) limits.maxRetry = maxRetry;
  const retryPeriod = num(v2.retryPeriodSeconds) ?? parseGoDuration(v1.retryPeriod);
  if (retryPeriod !== undefined) limits.retryPeriodSeconds = retryPeriod;
  return limits;
}
