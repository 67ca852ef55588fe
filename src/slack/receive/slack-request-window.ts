/**
 * How long a signed Slack request is acceptable, in one place. Slack signs
 * `v0:<timestamp>:<body>` and asks receivers to refuse a timestamp more than five minutes away from
 * their own clock ("Verifying requests from Slack"). Bolt refuses only the stale side; the
 * future side is checked by create-checked-receiver.ts, and the replay guard must remember a body
 * for as long as the two sides together accept it.
 */

/** Bolt's (and Slack's) limit on a request's age. */
export const SIGNATURE_MAX_AGE_SECONDS = 5 * 60;

/** How far in the future a timestamp may be (our clock behind Slack's): the same five minutes. */
export const MAX_FUTURE_SKEW_SECONDS = 5 * 60;

/**
 * A request stamped T is accepted from T − skew to T + max age. The replay guard sees it first at
 * the earliest at T − skew, so it must remember it this long.
 */
export const SIGNATURE_WINDOW_SECONDS = SIGNATURE_MAX_AGE_SECONDS + MAX_FUTURE_SKEW_SECONDS;

/** What the replay guard keeps a body hash for: the window plus a minute for replicas' clocks. */
export const REPLAY_TTL_SECONDS = SIGNATURE_WINDOW_SECONDS + 60;
