import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { RemediateError } from './remediate-error.js';

/** The environment variable holding the plan-signing secret (never stored in Redis, never logged). */
export const PLAN_SECRET_ENV = 'K8S_HEALTH_PLAN_SECRET';

/** Shortest accepted secret, in bytes (HMAC-SHA256 gains nothing past 64, and loses below 32). */
export const PLAN_SECRET_MIN_BYTES = 32;

/**
 * What each MAC is for. The purpose is part of the signed bytes (domain separation), so a MAC made
 * for one kind of record can never be replayed as another (a vote's MAC as a plan's).
 */
export type SignPurpose =
  | 'plan'
  | 'vote'
  | 'backup'
  | 'audit'
  | 'audit-head'
  | 'propose'
  | 'message'
  | 'alert-state'
  | 'alert-thread'
  | 'answer-card';

/**
 * HMAC-SHA256 with the server secret K8S_HEALTH_PLAN_SECRET over canonical JSON (docs/design.md "Approval rules":
 * Redis alone can never make a plan run). Without a usable secret the signer exists but is
 * not `ready`: every sign/verify throws one line naming the variable, so proposing and executing
 * refuse while the read-only bot (dump clusters, disabled clusters, the demo) keeps working.
 */
export interface PlanSigner {
  readonly ready: boolean;
  /** Why it is not ready: one line naming K8S_HEALTH_PLAN_SECRET (undefined when ready). */
  readonly problem?: string;
  /** Hex HMAC of `purpose` + canonical JSON of `payload`. Throws E_REMEDIATE_NO_SECRET when not ready. */
  sign(purpose: SignPurpose, payload: unknown): string;
  /** Constant-time comparison of `mac` with the MAC of the payload; false for any malformed mac. */
  verify(purpose: SignPurpose, payload: unknown, mac: unknown): boolean;
}

/** The signer for a secret from the environment (undefined or too short: not ready, with the reason). */
export function createPlanSigner(secret: string | undefined): PlanSigner {
  const problem = !secret
    ? `${PLAN_SECRET_ENV} is not set: approval-gated fixes are disabled until it holds a random secret of at least ${PLAN_SECRET_MIN_BYTES} bytes (e.g. \`openssl rand -hex 32\`), the same in every serve and worker process`
    : Buffer.byteLength(secret, 'utf8') < PLAN_SECRET_MIN_BYTES
      ? `${PLAN_SECRET_ENV} is shorter than ${PLAN_SECRET_MIN_BYTES} bytes: approval-gated fixes are disabled until it holds a random secret of at least ${PLAN_SECRET_MIN_BYTES} bytes (e.g. \`openssl rand -hex 32\`)`
      : undefined;
  // Kept in a closure only: the signer object carries no property that would print the secret.
  const key = problem ? undefined : Buffer.from(secret!, 'utf8');
  const mac = (purpose: SignPurpose, payload: unknown): Buffer => {
    if (!key) throw new RemediateError('E_REMEDIATE_NO_SECRET', problem!);
    return createHmac('sha256', key).update(`k8s-health/${purpose}/v1\n`).update(canonicalJson(payload)).digest();
  };
  return {
    ready: !problem,
    problem,
    sign: (purpose, payload) => mac(purpose, payload).toString('hex'),
    verify(purpose, payload, given) {
      if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
      return timingSafeEqual(mac(purpose, payload), Buffer.from(given, 'hex'));
    },
  };
}
