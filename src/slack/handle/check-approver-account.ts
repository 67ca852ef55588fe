import type { webApi } from '@slack/bolt';
import { slackErrorCode } from '../post/post-answer.js';
import { describeError } from '../../errors/describe-error.js';

/**
 * What users.info says about an approver at the moment of the vote. `ineligible`: the account can
 * no longer approve (deactivated, a guest, a bot, another workspace or org, unknown here);
 * `unverified`: Slack could not be asked, so the vote is not counted either (fail closed).
 */
export type ApproverAccount = { status: 'ok' } | { status: 'ineligible' | 'unverified'; reason: string };

/** Re-check one approver's Slack account. */
export type CheckApproverAccount = (client: webApi.WebClient, userId: string) => Promise<ApproverAccount>;

/** The users.info fields the check reads (api.slack.com/methods/users.info, "user" object). */
interface SlackUser {
  deleted?: boolean;
  is_bot?: boolean;
  is_app_user?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  /** A Slack Connect user from another organisation seen through a shared channel. */
  is_stranger?: boolean;
  team_id?: string;
  enterprise_user?: { enterprise_id?: string };
}

/** users.info answers that mean "no such member here" (a definite answer, not a failure to ask). */
const NOT_A_MEMBER = new Set(['user_not_found', 'user_not_visible']);

/**
 * Approvers are listed by Slack id in the config, but an account changes after the config was
 * written: it is deactivated, turned into a guest, or the id is someone in another workspace that
 * shares the channel. So at every vote (and only for a user the config already authorizes) the
 * account is read again with users.info, never cached:
 * - deactivated (`deleted`), a bot or app user, a guest (`is_restricted`, `is_ultra_restricted`),
 *   a Slack Connect stranger → ineligible;
 * - not in `policy.teamId` (users.info `team_id`) or not in `policy.enterpriseId`
 *   (`enterprise_user.enterprise_id`) when those are configured; with neither, not in the bot's own
 *   workspace or Enterprise Grid org (auth.test, asked once) → ineligible;
 * - users.info (or auth.test) failing in any other way → unverified: the vote does not count and the
 *   clicker is told why; they can click again.
 */
export function createApproverAccountCheck(policy: { teamId?: string; enterpriseId?: string }): CheckApproverAccount {
  let own: Promise<{ team?: string; enterprise?: string }> | undefined;
  const ownWorkspace = (client: webApi.WebClient) => {
    own ??= client.auth.test().then(
      (r) => ({ team: r.team_id, enterprise: r.enterprise_id }),
      (err: unknown) => {
        own = undefined; // asked again at the next vote
        throw err;
      },
    );
    return own;
  };
  return async (client, userId) => {
    let user: SlackUser;
    try {
      const res = await client.users.info({ user: userId });
      if (!res.user) return { status: 'unverified', reason: 'users.info returned no user' };
      user = res.user as SlackUser;
    } catch (err) {
      const code = slackErrorCode(err);
      if (NOT_A_MEMBER.has(code))
        return { status: 'ineligible', reason: `Slack does not know this account here (${code})` };
      return {
        status: 'unverified',
        reason: `Slack could not confirm the account (users.info: ${code || describeError(err)})`,
      };
    }
    if (user.deleted) return { status: 'ineligible', reason: 'the account is deactivated' };
    if (user.is_bot || user.is_app_user) return { status: 'ineligible', reason: 'a bot or app account' };
    if (user.is_restricted || user.is_ultra_restricted) return { status: 'ineligible', reason: 'a guest account' };
    if (user.is_stranger) return { status: 'ineligible', reason: 'an account of another organisation (Slack Connect)' };
    const enterprise = user.enterprise_user?.enterprise_id;
    if (policy.enterpriseId && enterprise !== policy.enterpriseId)
      return {
        status: 'ineligible',
        reason: 'not a member of the configured Enterprise Grid org (slack.enterpriseId)',
      };
    if (policy.teamId && user.team_id !== policy.teamId)
      return { status: 'ineligible', reason: 'not a member of the configured workspace (slack.teamId)' };
    if (!policy.teamId && !policy.enterpriseId) {
      let mine: { team?: string; enterprise?: string };
      try {
        mine = await ownWorkspace(client);
      } catch (err) {
        return {
          status: 'unverified',
          reason: `Slack could not confirm the bot's own workspace (auth.test: ${slackErrorCode(err) || describeError(err)})`,
        };
      }
      const sameTeam = !!mine.team && user.team_id === mine.team;
      const sameOrg = !!mine.enterprise && enterprise === mine.enterprise;
      if (!sameTeam && !sameOrg) return { status: 'ineligible', reason: "not a member of the bot's workspace" };
    }
    return { status: 'ok' };
  };
}
