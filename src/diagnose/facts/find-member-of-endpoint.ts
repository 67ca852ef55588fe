import type { EtcdMember } from '../../cluster/snapshot.js';
import { endpointKey } from './endpoint-key.js';
import { hostOf } from './host-of.js';

/**
 * The member an endpoint belongs to: by the member id the endpoint reported, else by client URL
 * (with or without scheme: etcdctl prints the endpoint as it was given, "127.0.0.1:2379"), else by
 * host:port, else by host when exactly one member has it (several members may share a host: the
 * etcd docs' 3-member cluster runs on 127.0.0.1 with ports 2379/22379/32379).
 */
export function findMemberOfEndpoint(
  members: readonly EtcdMember[],
  endpoint: string,
  memberId?: string,
): EtcdMember | undefined {
  if (memberId) {
    const byId = members.find((m) => m.id === memberId);
    if (byId) return byId;
  }
  const hp = endpointKey(endpoint);
  const byUrl = members.find((m) => m.clientURLs.some((u) => u === endpoint || endpointKey(u) === hp));
  if (byUrl) return byUrl;
  const host = hostOf(endpoint);
  const byHost = members.filter(
    (m) => m.clientURLs.some((u) => hostOf(u) === host) || m.peerURLs.some((u) => hostOf(u) === host),
  );
  return byHost.length === 1 ? byHost[0] : undefined;
}
