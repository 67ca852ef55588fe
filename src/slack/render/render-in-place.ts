import type { types } from '@slack/bolt';
import type { InPlaceChange } from '../../store/in-place-store.js';
import { neutralizeMrkdwn as md, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { proposeFixActionId } from '../action-ids.js';
import { slackDate } from './slack-date.js';

/** A change still in place, with whether its backend is still down (the title of a current finding that says so). */
export interface InPlaceShown {
  change: InPlaceChange;
  backendDown?: string;
}

/**
 * What an incident thread says while reversible fixes are in place (pure): one line each — what,
 * since when — then its Undo as a button (a new two-person proposal) with the undo's risk, which says
 * "its backend is still down" when a current finding shows that. Used on the alert parent and in
 * the resolution reply, so an incident never resolves silently over a suspended safeguard.
 */
export function renderInPlace(shown: readonly InPlaceShown[], opts: { resolved?: boolean } = {}): types.KnownBlock[] {
  if (shown.length === 0) return [];
  const lead = opts.resolved
    ? ':warning: *Resolved, but still in place* — undo once the cause is fixed:'
    : ':warning: *Still in place* — undo once the cause is fixed:';
  const lines = shown.map(({ change: c, backendDown }) => {
    const risk = backendDown
      ? `${md(c.undo.risk, { max: 300 })} *Its backend is still down* (${md(backendDown, { max: 200 })}): undoing now blocks again.`
      : md(c.undo.risk, { max: 300 });
    return `• *${md(c.label, { max: 200 })}* since ${slackDate(c.at) ?? 'an unknown time'} — undo risk: ${risk}`;
  });
  return [
    { type: 'section', text: { type: 'mrkdwn', text: [lead, ...lines].join('\n') } },
    {
      type: 'actions',
      block_id: `in-place:${shown[0]!.change.requestId}`.slice(0, 255),
      elements: shown.slice(0, 5).map(({ change: c }) => ({
        type: 'button' as const,
        action_id: proposeFixActionId(0),
        text: {
          type: 'plain_text' as const,
          text: neutralizeSlackPlainText(`Undo: ${c.undo.label}`, { max: 75 }),
          emoji: true,
        },
        value: c.undo.proposalId,
      })),
    },
  ];
}
