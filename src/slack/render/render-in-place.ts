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

/** Undo buttons one message shows (the rest stay on their requests' threads); Slack allows 25 elements a row. */
const MAX_UNDO = 5;
/**
 * Undo buttons take action ids from this index on, so that they never share one with the fix buttons
 * of the same row (Slack refuses a message whose block repeats an action id).
 */
const UNDO_INDEX = 100;

/**
 * What the resolution reply says while reversible fixes are in place (pure): one line each — what,
 * since when, the undo's whole risk, which says "its backend is still down" when a current finding
 * shows that — then its Undo as a button (a new two-person proposal). An incident never resolves
 * silently over a suspended safeguard: this reply says it in full, the parent in short
 * ({@link renderInPlaceSummary}).
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
    return `• *${md(c.label, { max: 200 })}* since ${since(c)} — undo risk: ${risk}`;
  });
  return [
    { type: 'section', text: { type: 'mrkdwn', text: [lead, ...lines].join('\n') } },
    {
      type: 'actions',
      block_id: `in-place:${shown[0]!.change.requestId}`.slice(0, 255),
      elements: undoButtons(shown, { named: true }),
    },
  ];
}

/**
 * The same on the alert parent, short enough for its one phone screen (pure): a line per change —
 * what is still in place (without the name `named` when the parent's header names it), since when,
 * and "its backend is still down" when a current finding shows that — and its Undo button, for the
 * parent's own row of buttons. The undo's whole risk is in the resolution reply and on the request
 * the Undo posts, where it is decided. One change's button reads "Undo", right under the line that
 * names it; several are told apart by their undo's label.
 */
export function renderInPlaceSummary(
  shown: readonly InPlaceShown[],
  opts: { named?: string } = {},
): { lines: string[]; buttons: types.Button[] } {
  const lines = shown.map(({ change: c, backendDown }) => {
    // "Suspend webhook kyverno-…-cfg" under a header that names kyverno-…-cfg reads "Suspend webhook": each fact once.
    const label = opts.named ? c.label.replace(` ${opts.named}`, '') : c.label;
    return `:warning: *Still in place* since ${since(c)}: ${md(label, { max: 200 })}${
      backendDown ? ' — *its backend is still down*.' : '.'
    }`;
  });
  return { lines, buttons: undoButtons(shown, { named: shown.length > 1 }) };
}

function since(c: InPlaceChange): string {
  return slackDate(c.at) ?? 'an unknown time';
}

/** The Undo buttons: each a proposal of its own, carrying only the undo's opaque proposal id. */
function undoButtons(shown: readonly InPlaceShown[], opts: { named: boolean }): types.Button[] {
  return shown.slice(0, MAX_UNDO).map(({ change: c }, i) => ({
    type: 'button' as const,
    action_id: proposeFixActionId(UNDO_INDEX + i),
    text: {
      type: 'plain_text' as const,
      text: opts.named ? neutralizeSlackPlainText(`Undo: ${c.undo.label}`, { max: 75 }) : 'Undo',
      emoji: true,
    },
    value: c.undo.proposalId,
  }));
}
