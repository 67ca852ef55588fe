import type { KubeObject } from '../../cluster/snapshot.js';
import { parseGoDuration } from './parse-go-duration.js';

/** The drain timeout an owner gives its Machines, and where it was read. */
export interface DrainTimeout {
  /** Seconds; undefined when unset or 0 (Cluster API then waits for the drain without limit). */
  seconds?: number;
  /** The field read, e.g. "spec.template.spec.deletion.nodeDrainTimeoutSeconds". */
  field: string;
}

/**
 * `nodeDrainTimeout` of the Machines a KubeadmControlPlane, MachineDeployment or MachineSet creates:
 * v1beta2 `…deletion.nodeDrainTimeoutSeconds` (KCP `spec.machineTemplate.spec.deletion`, MD/MS
 * `spec.template.spec.deletion`), v1beta1 `nodeDrainTimeout` as a Go duration (KCP
 * `spec.machineTemplate.nodeDrainTimeout`, MD/MS `spec.template.spec.nodeDrainTimeout`). "The default
 * value is 0, meaning that the node can be drained without any time limitations" (Cluster API API docs).
 */
export function readDrainTimeout(
  kind: 'KubeadmControlPlane' | 'MachineDeployment' | 'MachineSet',
  o: KubeObject,
): DrainTimeout {
  const spec = o.spec ?? {};
  const [v2, v1, v2Field, v1Field] =
    kind === 'KubeadmControlPlane'
      ? [
          spec.machineTemplate?.spec?.deletion?.nodeDrainTimeoutSeconds,
          spec.machineTemplate?.nodeDrainTimeout,
          'spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds',
          'spec.machineTemplate.nodeDrainTimeout',
        ]
      : [
          spec.template?.spec?.deletion?.nodeDrainTimeoutSeconds,
          spec.template?.spec?.nodeDrainTimeout,
          'spec.template.spec.deletion.nodeDrainTimeoutSeconds',
          'spec.template.spec.nodeDrainTimeout',
        ];
  const v1beta1 = typeof o.apiVersion === 'string' && o.apiVersion.endsWith('/v1beta1');
  const raw = v2 ?? v1;
  const seconds = parseGoDuration(raw);
  const field = v2 !== undefined ? v2Field : v1 !== undefined ? v1Field : v1beta1 ? v1Field : v2Field;
  return seconds !== undefined && seconds > 0 ? { seconds, field } : { field };
}
