import type { webApi } from '@slack/bolt';
import { slackErrorCode } from '../post/post-answer.js';
import type { SlackRequestPolicy } from './check-slack-request.js';
import { SlackStartupError } from './slack-startup-error.js';
import { describeError } from '../../errors/describe-error.js';

/** Which workspace/org requests must come from: configured, or learned from auth.test at start-up. */
export interface WorkspacePolicy {
  /** The policy in force; undefined until auth.test has answered (requests then get a 503). */
  current(): SlackRequestPolicy | undefined;
  /** Ask auth.test once (when nothing is configured) and fix the policy to the bot's own workspace. */
  learn(client: webApi.WebClient): Promise<SlackRequestPolicy>;
}

/**
 * The workspace the bot serves. With `slack.teamId` or `slack.enterpriseId` configured, that is it
 * from the start. With neither, the bot's own installation decides, never a payload: auth.test's
 * `team_id` (and `enterprise_id` for a workspace of an Enterprise Grid org), or its `enterprise_id`
 * alone for an org-wide install (`is_enterprise_install`, whose requests come from many workspaces).
 * Until auth.test has answered, the policy is unknown and every request is refused with 503.
 */
export function createWorkspacePolicy(configured: SlackRequestPolicy = {}): WorkspacePolicy {
  let known: SlackRequestPolicy | undefined =
    configured.teamId || configured.enterpriseId ? { ...configured } : undefined;
  return {
    current: () => known,
    async learn(client) {
      if (known) return known;
      let r: { team_id?: string; enterprise_id?: string; is_enterprise_install?: boolean };
      try {
        r = await client.auth.test();
      } catch (err) {
        throw new SlackStartupError(
          'E_SLACK_AUTH',
          `Slack did not say which workspace SLACK_BOT_TOKEN belongs to (auth.test: ${slackErrorCode(err) || describeError(err)}): set slack.teamId, or check SLACK_API_URL`,
          { cause: err },
        );
      }
      if (r.is_enterprise_install && r.enterprise_id) known = { enterpriseId: r.enterprise_id };
      else if (r.team_id) known = { teamId: r.team_id, ...(r.enterprise_id ? { enterpriseId: r.enterprise_id } : {}) };
      else
        throw new SlackStartupError(
          'E_SLACK_AUTH',
          'auth.test named no team_id for SLACK_BOT_TOKEN: set slack.teamId (and slack.enterpriseId) in the config',
        );
      return known;
    },
  };
}
