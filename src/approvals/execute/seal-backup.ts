import { createHash } from 'node:crypto';
import type { KubeObject } from '../../cluster/snapshot.js';
import type { StoredBackup } from '../approval-stores.js';
import { canonicalJson } from '../canonical-json.js';
import type { PlanSigner } from '../plan-signer.js';
import { RemediateError } from '../remediate-error.js';

/** A backup whose seal verified: the exact object the executor of `origin.requestId` saved. */
export interface OpenedBackup {
  what: string;
  object: KubeObject;
  /** sha256 of the object's canonical JSON: what a restore plan records and signs. */
  sha256: string;
  origin: NonNullable<StoredBackup['origin']>;
}

/** sha256 (hex) of an object's canonical JSON: the same object always hashes the same. */
export function hashObject(object: unknown): string {
  return createHash('sha256').update(canonicalJson(object)).digest('hex');
}

/**
 * The seal the executor stores with a backup: the object's hash, which request and action saved it,
 * and a MAC over both (K8S_HEALTH_PLAN_SECRET). Only a process holding the secret can produce it, so
 * a configuration written into the backup slot by anyone else is refused by {@link openSealedBackup}.
 */
export function sealBackup(
  signer: PlanSigner,
  what: string,
  object: KubeObject,
  origin: OpenedBackup['origin'],
): Pick<StoredBackup, 'sha256' | 'origin' | 'mac'> {
  const sha256 = hashObject(object);
  return { sha256, origin, mac: signer.sign('backup', { what, sha256, origin }) };
}

/**
 * The backup stored for `requestId`, only if its seal verifies: the MAC matches (constant-time), it
 * was saved for that very request (a backup copied from another request's slot is refused), and the
 * object still hashes to the sealed hash. Anything else throws one line (E_REMEDIATE_BACKUP).
 */
export function openSealedBackup(signer: PlanSigner, requestId: string, record: StoredBackup): OpenedBackup {
  const refuse = (why: string) =>
    new RemediateError('E_REMEDIATE_BACKUP', `the backup stored for request ${requestId} ${why}: refusing to use it`);
  if (!record.sha256 || !record.origin || !record.mac)
    throw refuse('carries no seal (saved before backups were sealed, or written by something other than the executor)');
  if (!signer.verify('backup', { what: record.what, sha256: record.sha256, origin: record.origin }, record.mac))
    throw refuse('has a seal that does not verify (changed in Redis, or K8S_HEALTH_PLAN_SECRET changed since)');
  if (record.origin.requestId !== requestId)
    throw refuse(`was saved by request ${record.origin.requestId}, not by this one`);
  if (hashObject(record.object) !== record.sha256)
    throw refuse('was changed after it was saved (its object no longer matches the sealed hash)');
  return { what: record.what, object: record.object, sha256: record.sha256, origin: record.origin };
}
