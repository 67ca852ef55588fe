import { SLACK_USER_ID } from '../render/mention-user.js';
import { neutralizePlainText } from '../../text/neutralize-plain-text.js';
import { MAX_FUTURE_SKEW_SECONDS } from './slack-request-window.js';

/** Why a signed request is refused, and the HTTP status it gets (never a 500). */
export interface SlackRequestRefusal {
  status: 400 | 401 | 403 | 503;
  /** Short and stable, for the log line and the metric label. */
  reason:
    | 'future-timestamp'
    | 'unknown-payload'
    | 'no-user'
    | 'no-view'
    | 'other-team'
    | 'other-enterprise'
    | 'workspace-unknown';
  /** One line for the log (untrusted values are neutralized by the log sink). */
  detail: string;
}

/** What {@link checkSlackRequest} checks against. */
export interface SlackRequestPolicy {
  /**
   * config `slack.teamId`, or auth.test's `team_id` when unset (create-workspace-policy.ts): the
   * payload's team (and its user's team) must be this one.
   */
  teamId?: string;
  /** config `slack.enterpriseId`: when set, the payload's Enterprise Grid org must be this one. */
  enterpriseId?: string;
}

/** Interactive payload types; each is a person's click or submission and names that person. */
const INTERACTIVE_TYPES = new Set([
  'block_actions',
  'view_submission',
  'view_closed',
  'block_suggestion',
  'shortcut',
  'message_action',
  'interactive_message',
  'dialog_submission',
  'dialog_cancellation',
]);

type Body = Record<string, unknown>;

/**
 * The checks a verified (signed, not stale) request still has to pass before any listener sees it.
 * Pure. In order:
 * 1. a timestamp more than {@link MAX_FUTURE_SKEW_SECONDS} ahead of our clock → 401, like a stale one
 *    (Bolt only refuses the past side; `timestamp` is absent in Socket Mode, which has no signature);
 * 2. a payload that is neither a slash command, an interaction nor an event → 400;
 * 3. a command or interaction without a well-formed user id (`user_id`, `user.id`) → 400, instead
 *    of a listener failing on it (a 500); a view submission or closing without its `view` → 400;
 * 4. with `teamId` set: a payload whose team (`team_id`, `team.id`) is missing or another, or whose
 *    user's team (`user.team_id`, when given) is another → 403; with `enterpriseId` set: an org
 *    (`enterprise_id`, `enterprise.id`, `team.enterprise_id`) missing or another → 403.
 */
export function checkSlackRequest(
  body: unknown,
  policy: SlackRequestPolicy,
  request: { timestamp?: unknown; nowSeconds: number },
): SlackRequestRefusal | undefined {
  if (request.timestamp !== undefined) {
    const ts = Number(request.timestamp);
    if (!Number.isFinite(ts) || ts > request.nowSeconds + MAX_FUTURE_SKEW_SECONDS) {
      return {
        status: 401,
        reason: 'future-timestamp',
        detail: `request timestamp ${neutralizePlainText(request.timestamp, { max: 20 })} is more than ${MAX_FUTURE_SKEW_SECONDS} s ahead of this clock`,
      };
    }
  }
  if (!isObject(body)) return { status: 400, reason: 'unknown-payload', detail: 'the payload is not an object' };
  const kind =
    typeof body.command === 'string'
      ? 'command'
      : body.type === 'event_callback'
        ? 'event'
        : typeof body.type === 'string' && INTERACTIVE_TYPES.has(body.type)
          ? 'interaction'
          : undefined;
  if (!kind)
    return {
      status: 400,
      reason: 'unknown-payload',
      detail: `payload type ${String(body.type).slice(0, 40)} is not handled`,
    };

  const user =
    kind === 'command'
      ? body.user_id
      : kind === 'interaction'
        ? isObject(body.user)
          ? body.user.id
          : undefined
        : undefined;
  if (kind !== 'event' && (typeof user !== 'string' || !SLACK_USER_ID.test(user))) {
    return { status: 400, reason: 'no-user', detail: `a ${kind} without a valid user id` };
  }

  if ((body.type === 'view_submission' || body.type === 'view_closed') && !isObject(body.view)) {
    return { status: 400, reason: 'no-view', detail: `a ${body.type} without a view` };
  }

  const team = isObject(body.team) ? body.team : undefined;
  if (policy.teamId) {
    // The payload's own team must be named and be ours; the user's team, when given, too.
    const payloadTeam = kind === 'interaction' ? team?.id : body.team_id;
    const userTeam = isObject(body.user) ? body.user.team_id : undefined;
    if (payloadTeam !== policy.teamId || (userTeam !== undefined && userTeam !== policy.teamId)) {
      const seen = [payloadTeam, userTeam]
        .filter((t) => t !== undefined)
        .map((t) => neutralizePlainText(t, { max: 20 }));
      return {
        status: 403,
        reason: 'other-team',
        detail: `team ${seen.join('/') || '(none)'} is not the configured slack.teamId ${policy.teamId}`,
      };
    }
  }
  if (policy.enterpriseId) {
    const orgs = [body.enterprise_id, isObject(body.enterprise) ? body.enterprise.id : undefined, team?.enterprise_id];
    const named = orgs.filter((e) => e !== undefined && e !== null && e !== '');
    if (named.length === 0 || named.some((e) => e !== policy.enterpriseId)) {
      return {
        status: 403,
        reason: 'other-enterprise',
        detail: `enterprise ${named.map(String).join('/') || '(none)'} is not the configured slack.enterpriseId ${policy.enterpriseId}`,
      };
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Body {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
