import { randomBytes } from 'node:crypto';
import type { Logger } from '../../log/logger.js';

/**
 * The child logger of one Slack request: every line a handler writes carries the request's id (Slack's
 * `trigger_id`, which Slack's own logs show too, or a random one), the user and the channel. The ids
 * come from the verified payload (create-checked-receiver.ts checked the user id's shape).
 */
export function createRequestLogger(
  log: Logger,
  ids: { triggerId?: unknown; user?: unknown; channel?: unknown },
): Logger {
  const request =
    typeof ids.triggerId === 'string' && ids.triggerId
      ? ids.triggerId.slice(0, 100)
      : `local-${randomBytes(6).toString('hex')}`;
  return log.child({ request, user: ids.user, channel: ids.channel });
}
