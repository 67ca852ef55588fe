import type { types } from '@slack/bolt';
import { neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { proposeFixActionId } from '../action-ids.js';

/** Fix buttons shown as buttons; the rest go into one overflow menu. */
export const FIX_BUTTONS = 2;
/** Options an overflow menu holds (Slack's limit). */
const OVERFLOW_MAX = 5;

/**
 * Every proposed fix of a root cause as something to press (pure): the first {@link FIX_BUTTONS} (or
 * `buttons`) as buttons (the first primary when `primary`), any more in one overflow menu. Each carries only its
 * opaque proposal id and goes through the same two-person approval (handle-propose-fix.ts reads the
 * id from a button's value or an overflow option's value). `fixes` are the remediation indexes with
 * their labels and ids, in the finding's order.
 */
export function renderFixButtons(
  fixes: readonly { index: number; label: string; id: string }[],
  opts: { primary?: boolean; buttons?: number } = {},
): (types.Button | types.Overflow)[] {
  const shown = opts.buttons ?? FIX_BUTTONS;
  const out: (types.Button | types.Overflow)[] = fixes.slice(0, shown).map((f, n) => ({
    type: 'button',
    ...(opts.primary && n === 0 ? { style: 'primary' as const } : {}),
    action_id: proposeFixActionId(f.index),
    text: { type: 'plain_text', text: neutralizeSlackPlainText(f.label, { max: 75 }), emoji: true },
    value: f.id,
  }));
  const more = fixes.slice(shown, shown + OVERFLOW_MAX);
  if (more.length > 0) {
    out.push({
      type: 'overflow',
      action_id: proposeFixActionId(more[0]!.index),
      options: more.map((f) => ({
        text: { type: 'plain_text', text: neutralizeSlackPlainText(f.label, { max: 75 }), emoji: true },
        value: f.id,
      })),
    });
  }
  return out;
}
