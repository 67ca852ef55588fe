import type { ActionContext } from './action-context.js';
import { collectEtcdLeader, type EtcdLeaderView } from './collect-etcd-leader.js';

/**
 * `use` on a fresh live view of the etcd cluster (collectEtcdLeader: members, statuses and a client
 * pinned to the current leader), the leader's client closed afterwards whether `use` returns or throws.
 */
export async function withEtcdLeader<T>(
  etcd: NonNullable<ActionContext['etcd']>,
  use: (view: EtcdLeaderView) => T | Promise<T>,
): Promise<T> {
  const view = await collectEtcdLeader(etcd);
  try {
    return await use(view);
  } finally {
    view.close();
  }
}
