import type { KubeObject } from '../cluster/snapshot.js';
import type { ApprovalRequest } from './approval-request.js';

/**
 * The stores the approval flow needs, as interfaces of the approvals side (implemented on Redis in
 * store/: approval-store.ts, approval-backups.ts, audit-log.ts). approvals/ never imports store/;
 * store/ implements these for the composition roots to pass in.
 */

/** Approval requests in Redis: created once, then changed only through compare-and-set. */
export interface ApprovalStore {
  /** A fresh opaque request id (`r_…`). */
  newId(): string;
  create(req: ApprovalRequest): Promise<void>;
  get(id: string): Promise<ApprovalRequest | undefined>;
  /**
   * Atomically change a request: `change` gets the stored request and returns the next one (or
   * undefined for "no change"). On a concurrent change it is re-run on the newer value, so exactly
   * one of many racing callers wins each transition. Returns the stored result and the change's extra.
   */
  update<T>(
    id: string,
    change: (req: ApprovalRequest) => { request?: ApprovalRequest; extra: T },
  ): Promise<{ request: ApprovalRequest; changed: boolean; extra: T } | undefined>;
  /**
   * Ids of pending requests whose expiresAt is at or before `ms` (epoch milliseconds), soonest
   * first, at most `limit`: the expiry sweep's work list (index `{<prefix>:approvals}:approvals:pending`).
   */
  pendingBefore(ms: number, limit: number): Promise<string[]>;
  /** Remember that this request's Slack message still shows an older state (a failed or skipped chat.update). */
  markMessageStale(id: string): Promise<void>;
  /**
   * Take (remove and return) up to `limit` ids marked stale. SPOP: concurrent callers get disjoint
   * ids, so each stale message is re-rendered by one caller; one that fails marks it stale again.
   */
  takeStaleMessages(limit: number): Promise<string[]>;
  /**
   * Record that this request is being executed, once: SET NX of `<prefix>approvals:executed:<id>`.
   * True for the first caller ever (within the 30-day retention), false afterwards: a request reset
   * to `approved` in Redis and enqueued again finds the marker and is refused ("not
   * executed before"). Set after the claim and the re-verification, right before anything is sent.
   */
  markExecuted(id: string): Promise<boolean>;
  /**
   * Remember that the fix-button click `clickKey` (proposal, clicker, message: proposalClickKey) made
   * request `id`, for `ttlSeconds` (the request's lifetime): a second click of the same button by
   * the same person finds it instead of making another request while this one is pending.
   */
  linkClick(clickKey: string, id: string, ttlSeconds: number): Promise<void>;
  /** The request the click `clickKey` made, when one is remembered. */
  requestOfClick(clickKey: string): Promise<string | undefined>;
  /**
   * Claim the fix `fixKey` (request/fix-key.ts: cluster, action, parameters) for request `id`, for
   * `ttlSeconds`, atomically (SET NX): one request per fix at a time, whoever clicks and wherever.
   * Returns the id holding the claim — `id` when this call took it (or renewed its own), else the
   * earlier holder. When this call takes a free claim, `planner` (the clicker's Slack id) is kept with
   * it for {@link awaitFix} to name.
   */
  claimFix(fixKey: string, id: string, ttlSeconds: number, planner?: string): Promise<string>;
  /**
   * A click of the fix `fixKey`, whose claim request `holder` took, in one atomic step:
   * - `requested`: `holder` is stored (the caller reads it: pending, or decided and taken over);
   * - `planning`: `holder` is still being planned; `waiter.value` is kept under `waiter.key` (one
   *   entry per key, at most a hundred) for as long as the claim lasts, and handed to the planner by
   *   {@link takeFixWaiters} once it stored its request or gave up; `planner` as {@link claimFix} kept it;
   * - `free`: `holder` no longer holds the claim (it gave up, or its claim expired): claim again.
   * Atomic with the planner's create-then-take, so a click is either handed over or finds the request.
   */
  awaitFix(
    fixKey: string,
    holder: string,
    waiter: { key: string; value: string },
  ): Promise<{ state: 'requested' } | { state: 'planning'; planner?: string } | { state: 'free' }>;
  /** Take (remove and return) the waiter values {@link awaitFix} kept for request `id`. */
  takeFixWaiters(id: string): Promise<string[]>;
  /** Give the claim up, only if `id` still holds it (a click that did not become a request, or a decided one). */
  releaseFix(fixKey: string, id: string): Promise<void>;
  /** Remember, for `ttlSeconds`, that the fix ran successfully at `at` (ISO): its buttons are hidden from then on. */
  markFixRan(fixKey: string, at: string, ttlSeconds: number): Promise<void>;
  /** When each of these fixes last ran successfully (ISO), for those remembered. */
  fixesRan(fixKeys: readonly string[]): Promise<Record<string, string>>;
}

/**
 * A backup as stored. `sha256`, `origin` and `mac` are its seal (approvals/execute/seal-backup.ts): who saved
 * it (the executor of request `origin.requestId`, running that action with those params) and a MAC
 * with K8S_HEALTH_PLAN_SECRET over that and the object's hash, so a restore can refuse anything but
 * the exact object its plan backed up. Backups saved by versions that did not seal them have no seal (never restored).
 */
export interface StoredBackup {
  what: string;
  object: KubeObject;
  savedAt: string;
  sha256?: string;
  origin?: { requestId: string; action: string; params: Record<string, string | number> };
  mac?: string;
}

/** Full objects saved before a remediation deletes or changes them. */
export interface ApprovalBackups {
  save(
    requestId: string,
    what: string,
    object: KubeObject,
    seal?: Pick<StoredBackup, 'sha256' | 'origin' | 'mac'>,
  ): Promise<void>;
  load(requestId: string): Promise<StoredBackup | undefined>;
}

/** One audited step: who, when, what, result (docs/design.md "Approval rules"). */
/**
 * Alert thread buttons: "I'm on it", Snooze, Unsnooze. `requestId` is then the thread's
 * incident key and `action` the button (`alert.own`, `alert.snooze`, `alert.unsnooze`).
 */
export type AlertAuditEvent = 'owned' | 'snoozed' | 'unsnoozed';

export interface AuditEvent {
  /** ISO time. */
  at: string;
  cluster: string;
  requestId: string;
  /** `refused`: a click that changed nothing, or (no user) the executor refusing a request it could not re-verify. */
  event:
    | 'proposed'
    | 'refused'
    | 'approved'
    | 'rejected'
    | 'cancelled'
    | 'expired'
    | 'executing'
    | 'succeeded'
    | 'failed'
    | 'aborted'
    | 'interrupted'
    | AlertAuditEvent;
  action: string;
  /** Slack user id of the actor, when a person acted. */
  user?: string;
  /** The plan hash, so a trail can be matched to exactly what was approved. */
  hash?: string;
  detail?: string;
}

export interface AuditLog {
  append(e: AuditEvent): Promise<void>;
  /** Newest first. */
  list(opts?: { cluster?: string; limit?: number }): Promise<(AuditEvent & { id: string })[]>;
}
