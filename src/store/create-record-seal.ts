import type { PlanSigner, SignPurpose } from '../approvals/plan-signer.js';

/** A MAC over a record the bot wrote and reads back to decide where it posts or what it edits. */
export interface RecordSeal {
  sign(payload: unknown): string;
  /** False for a missing, malformed or wrong MAC. */
  verify(payload: unknown, mac: unknown): boolean;
}

/**
 * The seal of one kind of record, with the server secret (K8S_HEALTH_PLAN_SECRET): undefined when
 * the process has none, and then the records are neither sealed nor checked — the channels a post
 * goes to are still checked against the configuration.
 */
export function createRecordSeal(signer: PlanSigner | undefined, purpose: SignPurpose): RecordSeal | undefined {
  if (!signer?.ready) return undefined;
  return {
    sign: (payload) => signer.sign(purpose, payload),
    verify: (payload, mac) => signer.verify(purpose, payload, mac),
  };
}
