import type { KubeObject } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';
import { findCondition } from './find-condition.js';
import { machineInfo } from './machine-info.js';

/**
 * One evidence line quoting a Machine's fields:
 * `Machine tkg-system/x: phase=Provisioned, nodeRef=<none>, condition NodeHealthy=False reason=NodeProvisioning (since
 * …, 2h14m ago)`.
 */
export function describeMachine(m: KubeObject, now: Date): string {
  const info = machineInfo(m);
  const parts = [`phase=${info.phase ?? '<none>'}`, `nodeRef=${info.nodeName ?? '<none>'}`];
  if (info.version) parts.push(`version=${info.version}`);
  if (m.metadata.creationTimestamp) parts.push(`created ${m.metadata.creationTimestamp}`);
  if (m.metadata.deletionTimestamp) parts.push(`deletionTimestamp=${m.metadata.deletionTimestamp}`);
  // v1beta1 NodeHealthy, else v1beta2 NodeReady: whichever the object carries.
  const cond = findCondition(m, 'NodeHealthy') ?? findCondition(m, 'NodeReady');
  if (cond) {
    let c = `condition ${cond.type}=${cond.status}`;
    if (cond.reason) c += ` reason=${cond.reason}`;
    if (cond.message) c += ` message="${cond.message}"`;
    const age = ageMinutes(cond.lastTransitionTime, now);
    if (cond.lastTransitionTime && age !== undefined)
      c += ` (since ${cond.lastTransitionTime}, ${formatAge(age * 60000)} ago)`;
    parts.push(c);
  }
  return `Machine ${info.namespace}/${info.name}: ${parts.join(', ')}`;
}
