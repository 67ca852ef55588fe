/** A person the sandbox page can act as: a Slack user of the simulated workspace. */
export interface SandboxPerson {
  /** Slack user id (what the bot sees in the verified payload). */
  id: string;
  /** Handle shown for mentions (`@pat`). */
  name: string;
  realName: string;
  /** What this person is in the approval policy of the sandbox cluster. */
  role: 'requester' | 'approver' | 'unauthorized';
}

/** The simulated workspace (auth.test's team_id; the config's slack.teamId, so the request checks run). */
export const SANDBOX_TEAM_ID = 'T0SANDBOX';
/** The incident channel the page plays; it is also the clusters' alert channel. */
export const SANDBOX_CHANNEL = { id: 'C0INCIDENT', name: 'incident' } as const;
/** The app id Slack puts in every payload and view (ours is simulated). */
export const SANDBOX_APP_ID = 'A0SANDBOX';
/** The bot's own user. */
export const SANDBOX_BOT = { id: 'U0BOT', botId: 'B0BOT', name: 'k8s-health' } as const;

/**
 * Who the page can act as. Pat proposes fixes and is an approver too, so that Pat's own approval
 * shows the self-approval refusal (an unauthorized proposer would be refused as unauthorized
 * first); Ann and Ben are the two other approvers; Uma is a member of the workspace who is not
 * an approver.
 */
export const SANDBOX_PEOPLE: readonly SandboxPerson[] = [
  { id: 'U0PAT', name: 'pat', realName: 'Pat (on call)', role: 'requester' },
  { id: 'U0ANN', name: 'ann', realName: 'Ann (approver)', role: 'approver' },
  { id: 'U0BEN', name: 'ben', realName: 'Ben (approver)', role: 'approver' },
  { id: 'U0UMA', name: 'uma', realName: 'Uma (not an approver)', role: 'unauthorized' },
];

/** The approvers.users of every sandbox cluster: everybody but the unauthorized person. */
export const SANDBOX_APPROVERS = SANDBOX_PEOPLE.filter((p) => p.role !== 'unauthorized').map((p) => p.id);
