import type { Etcd3, IStatusResponse } from 'etcd3';
import { createEtcdClient } from '../../cluster/etcd/create-etcd-client.js';
import { describeEtcdError } from '../../cluster/etcd/describe-etcd-error.js';
import type { ActionContext } from './action-context.js';
import { RemediateError } from '../remediate-error.js';

/** One member as remediation sees it: ids are exact uint64 decimal strings. */
export interface EtcdMemberView {
  id: string;
  name: string;
  clientUrls: string[];
  isLearner: boolean;
  /** The status of the endpoint that answers for this member, when it answered. */
  status?: { leader: string; raftAppliedIndex: bigint; errors: string[] };
  endpoint?: string;
}

/** The live view of the etcd cluster, and a client pinned to its current leader. */
export interface EtcdLeaderView {
  leaderId: string;
  leaderEndpoint: string;
  members: EtcdMemberView[];
  /**
   * A client for the leader's endpoint ONLY (docs/development.md, "Stack notes": moveLeader must be sent to the
   * leader).
   */
  leader: Etcd3;
  close(): void;
}

/**
 * Probe every configured endpoint (status answers for one host, so one client each), read the member
 * list, and find the current leader: the member whose own status names itself leader.
 */
export async function collectEtcdLeader(etcd: NonNullable<ActionContext['etcd']>): Promise<EtcdLeaderView> {
  const clients = etcd.endpoints.map((endpoint) => ({
    endpoint,
    client: createEtcdClient(endpoint, { timeoutMs: etcd.timeoutMs, tls: etcd.tls }),
  }));
  const closeAll = (keep?: Etcd3) => clients.forEach((c) => c.client !== keep && c.client.close());
  try {
    const statuses = await Promise.all(
      clients.map(async (c) => ({
        ...c,
        status: await c.client.maintenance.status().catch((err: unknown) => describeEtcdError(err)),
      })),
    );
    const answered = statuses.filter((s): s is typeof s & { status: IStatusResponse } => typeof s.status !== 'string');
    const leaderSelf = answered.find((s) => s.status.leader !== '0' && s.status.header.member_id === s.status.leader);
    if (!leaderSelf) {
      const why = statuses
        .map((s) => `${s.endpoint}: ${typeof s.status === 'string' ? s.status : `leader ${s.status.leader}`}`)
        .join('; ');
      throw new RemediateError(
        'E_REMEDIATE_ETCD',
        `no etcd endpoint answers as the leader (${why}): etcd has no reachable leader, nothing can be changed safely`,
      );
    }
    const list = await leaderSelf.client.cluster.memberList({ linearizable: true });
    const members: EtcdMemberView[] = list.members.map((m) => {
      const s = answered.find((a) => a.status.header.member_id === m.ID);
      return {
        id: m.ID,
        name: m.name,
        clientUrls: m.clientURLs ?? [],
        isLearner: !!m.isLearner,
        endpoint: s?.endpoint,
        status: s
          ? {
              leader: s.status.leader,
              raftAppliedIndex: BigInt(s.status.raftAppliedIndex || s.status.raftIndex || '0'),
              errors: s.status.errors ?? [],
            }
          : undefined,
      };
    });
    closeAll(leaderSelf.client);
    return {
      leaderId: leaderSelf.status.leader,
      leaderEndpoint: leaderSelf.endpoint,
      members,
      leader: leaderSelf.client,
      close: () => leaderSelf.client.close(),
    };
  } catch (err) {
    closeAll();
    if (err instanceof RemediateError) throw err;
    throw new RemediateError('E_REMEDIATE_ETCD', `cannot read etcd: ${describeEtcdError(err)}`, { cause: err });
  }
}
