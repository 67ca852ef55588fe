import { createHash } from 'node:crypto';
import type { FindingId, FindingSubject } from './finding.js';

/** Stable hash of cluster + finding id + subject (docs/design.md): the key of an alert thread. */
export function fingerprint(cluster: string, id: FindingId, subject: FindingSubject): string {
  const key = [cluster, id, subject.kind, subject.namespace ?? '', subject.name].join('\u0000');
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}
