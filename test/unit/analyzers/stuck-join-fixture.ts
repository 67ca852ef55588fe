import type { EtcdState } from '../../../src/cluster/snapshot.js';
import { s2Snapshot } from './s2-fixture.js';

/** The exact uint64 of etcdctl's hex id e38f7103cfd379b6 (kubernetes-sigs/cluster-api#5509). */
export const UNSTARTED_ID = BigInt('0xe38f7103cfd379b6').toString();

/**
 * Defect class 7, in miniature: the seed-S2 cluster, but the member at the new machine's
 * address 10.0.0.4 is an unstarted one left by an earlier failed join (no name, no client URL, as
 * etcdctl prints it; cluster-api#5509/#13221), so the new machine cp3 cannot add its own member.
 * The memory-heavy workloads of S2 are still on the control-plane nodes: they are not the cause.
 */
export function stuckJoinSnapshot(newMachineMinutesAgo = 40) {
  const s = s2Snapshot(newMachineMinutesAgo);
  const etcd = s.etcd as EtcdState;
  const members = etcd.members.filter((m) => m.name !== 'cp3');
  members.push({ id: UNSTARTED_ID, name: '', peerURLs: ['https://10.0.0.4:2380'], clientURLs: [], isLearner: false });
  return {
    ...s,
    etcd: {
      ...etcd,
      members,
      endpoints: etcd.endpoints.filter((e) => e.memberId !== '4'),
      health: etcd.health.filter((h) => !h.endpoint.includes('10.0.0.4')),
    },
  };
}
