import type { KubeObject } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';

/** A Node whose Ready condition is True (False, Unknown or missing is not ready). */
export function isNodeReady(node: KubeObject): boolean {
  return findCondition(node, 'Ready')?.status === 'True';
}
