/** Votes etcd needs to keep a leader: a strict majority of the voting members. */
export function quorum(votingMembers: number): number {
  return Math.floor(Math.max(0, votingMembers) / 2) + 1;
}
