import type { KubeObject } from '../../cluster/snapshot.js';
import { findCondition, type Condition } from './find-condition.js';
import { parseGoDuration } from './parse-go-duration.js';

/** MachineHealthCheck default for a new Machine to get a Node (v1beta1 "10m", v1beta2 600 s). */
export const DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS = 600;

/** One unhealthy-node (or unhealthy-machine) condition an MHC checks, with its timeout in seconds. */
export interface MhcConditionCheck {
  type: string;
  status: string;
  timeoutSeconds?: number;
}

/** A MachineHealthCheck read the same way for CAPI v1beta2 and v1beta1. */
export interface MhcStatus {
  expectedMachines?: number;
  currentHealthy?: number;
  remediationsAllowed?: number;
  /** Names of the Machines it checks (status.targets). */
  targets: string[];
  /** How long a new Machine may go without a Node before the MHC calls it unhealthy. */
  nodeStartupTimeoutSeconds: number;
  /** True when the object does not set it and the CAPI default applies. */
  nodeStartupTimeoutDefaulted: boolean;
  unhealthyNodeConditions: MhcConditionCheck[];
  /** Its selector picks control-plane Machines. */
  controlPlane: boolean;
  /** RemediationAllowed condition (False = maxUnhealthy / unhealthyRange exceeded). */
  remediationAllowed?: Condition;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * v1beta2 keeps the checks under spec.checks (`nodeStartupTimeoutSeconds`,
 * `unhealthyNodeConditions[].timeoutSeconds`); v1beta1 has spec.nodeStartupTimeout ("10m") and
 * spec.unhealthyConditions[].timeout ("5m0s"). v1beta2 first. Fields of the wrong type (a corrupt
 * dump) read as absent.
 */
export function readMhcStatus(mhc: KubeObject): MhcStatus {
  const spec = mhc.spec && typeof mhc.spec === 'object' ? mhc.spec : {};
  const status = mhc.status && typeof mhc.status === 'object' ? mhc.status : {};
  const checks = spec.checks && typeof spec.checks === 'object' ? spec.checks : {};
  const startup = num(checks.nodeStartupTimeoutSeconds) ?? parseGoDuration(spec.nodeStartupTimeout);
  const raw: unknown[] = [
    ...(Array.isArray(checks.unhealthyNodeConditions) ? checks.unhealthyNodeConditions : []),
    ...(Array.isArray(spec.unhealthyConditions) ? spec.unhealthyConditions : []),
  ];
  const unhealthyNodeConditions = raw
    .filter(
      (c): c is Record<string, unknown> =>
        !!c && typeof c === 'object' && typeof (c as { type?: unknown }).type === 'string',
    )
    .map((c) => {
      const check: MhcConditionCheck = {
        type: c.type as string,
        status: typeof c.status === 'string' ? c.status : c.status == null ? '' : JSON.stringify(c.status),
      };
      const t = num(c.timeoutSeconds) ?? parseGoDuration(c.timeout);
      if (t !== undefined) check.timeoutSeconds = t;
      return check;
    });
  const rawSel = spec.selector?.matchLabels;
  const sel = rawSel && typeof rawSel === 'object' ? rawSel : {};
  const out: MhcStatus = {
    expectedMachines: num(status.expectedMachines),
    currentHealthy: num(status.currentHealthy),
    remediationsAllowed: num(status.remediationsAllowed),
    targets: Array.isArray(status.targets)
      ? status.targets.filter((t: unknown): t is string => typeof t === 'string')
      : [],
    nodeStartupTimeoutSeconds: startup ?? DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS,
    nodeStartupTimeoutDefaulted: startup === undefined,
    unhealthyNodeConditions,
    controlPlane: 'cluster.x-k8s.io/control-plane' in sel || 'cluster.x-k8s.io/control-plane-name' in sel,
  };
  const allowed = findCondition(mhc, 'RemediationAllowed');
  if (allowed) out.remediationAllowed = allowed;
  return out;
}
