import {
  AlarmAction,
  AlarmType,
  type Etcd3,
  type IAlarmResponse,
  type IMemberListResponse,
  type IStatusResponse,
} from 'etcd3';
import type { ClusterConfig } from '../../config/config-schema.js';
import { createEtcdClient } from './create-etcd-client.js';
import { describeEtcdError } from './describe-etcd-error.js';
import { loadEtcdTls } from './load-etcd-tls.js';
import { alarmName, alarmsFromEndpoints as alarmsFromStatus } from '../parse/parse-etcdctl-json.js';
import { sortEtcdErrors } from '../parse/sort-etcd-errors.js';
import type {
  EtcdCommandError,
  EtcdEndpointHealth,
  EtcdEndpointStatus,
  EtcdMember,
  EtcdState,
  PartialEntry,
} from '../snapshot.js';

type Outcome<T> = { ok: true; value: T; ms: number } | { ok: false; error: string; ms: number };

async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  const start = performance.now();
  try {
    const value = await fn();
    return { ok: true, value, ms: performance.now() - start };
  } catch (err) {
    return { ok: false, error: describeEtcdError(err), ms: performance.now() - start };
  }
}

interface EndpointProbe {
  endpoint: string;
  client: Etcd3;
  status: Outcome<IStatusResponse>;
  members: Outcome<IMemberListResponse>;
  /** Linearizable read: needs a leader and quorum, like `etcdctl endpoint health`. */
  read: Outcome<unknown>;
}

/**
 * Probe every etcd endpoint live, the way `etcdctl member list / endpoint status / endpoint health`
 * would, and never throw for an unreachable or quorum-less cluster: what could not be read goes to
 * `partial`, a member that does not answer shows as unhealthy (seed S0: a paused/unreachable leader,
 * seed S1: 1 of 3 members left).
 */
export async function collectEtcd(
  cfg: NonNullable<ClusterConfig['etcd']>,
): Promise<{ etcd?: EtcdState; partial: PartialEntry[] }> {
  const { tls, partial } = await loadEtcdTls(cfg);
  // Without its certificates every member would look down: report the config problem instead.
  if (partial.length) return { partial };

  const probes = await Promise.all(cfg.endpoints.map((endpoint) => probeEndpoint(endpoint, cfg.timeoutMs, tls)));
  try {
    const endpoints: EtcdEndpointStatus[] = [];
    // What failed, as etcdctl would have said it on stderr: `dump` writes these to etcd/<command>.err
    // and the analyzers tell "asked and got no answer" from "never asked".
    const errors: EtcdCommandError[] = [];
    for (const p of probes) {
      // As etcdctl does, an endpoint that does not answer status is left out of the status list.
      if (p.status.ok) endpoints.push(toEndpointStatus(p.endpoint, p.status.value));
      else {
        partial.push({ source: `etcd ${p.endpoint}`, error: p.status.error });
        errors.push({ command: 'endpoint status', endpoint: p.endpoint, error: p.status.error });
      }
    }

    // The member list is served locally (no quorum needed in 3.4): take the first endpoint that answers.
    const listed = probes.map((p) => p.members).find((m) => m.ok);
    if (!listed) {
      partial.push({ source: 'etcd member list', error: 'no endpoint answered (see the etcd endpoint entries)' });
      for (const p of probes)
        if (!p.members.ok) errors.push({ command: 'member list', endpoint: p.endpoint, error: p.members.error });
    }

    // The alarm list goes through raft, so only ask an endpoint that just served a linearizable read.
    const healthy = probes.find((p) => p.read.ok);
    let alarms: EtcdState['alarms'] = [];
    if (healthy) {
      const res = await attempt(() =>
        healthy.client.maintenance.alarm({ action: AlarmAction.Get, memberID: 0, alarm: AlarmType.None }),
      );
      if (res.ok) alarms = toAlarms(res.value);
      else {
        partial.push({ source: 'etcd alarm list', error: `${healthy.endpoint}: ${res.error}` });
        errors.push({ command: 'alarm list', endpoint: healthy.endpoint, error: res.error });
      }
    } else {
      partial.push({ source: 'etcd alarm list', error: 'no healthy endpoint to ask (the alarm list needs quorum)' });
      errors.push({ command: 'alarm list', error: 'no healthy endpoint to ask (the alarm list needs quorum)' });
    }
    // Alarms the alarm list could not give still show in each member's status errors
    // ("memberID:… alarm:NOSPACE "), which need no quorum.
    if (!healthy) alarms = alarmsFromStatus(endpoints);

    const etcd: EtcdState = {
      source: 'live',
      members: listed?.ok ? toMembers(listed.value) : [],
      endpoints,
      health: probes.map((p) => toHealth(p, alarms)),
      alarms,
    };
    if (errors.length) etcd.errors = sortEtcdErrors(errors);
    return { etcd, partial };
  } finally {
    for (const p of probes) p.client.close();
  }
}

async function probeEndpoint(
  endpoint: string,
  timeoutMs: number,
  tls: Parameters<typeof createEtcdClient>[1]['tls'],
): Promise<EndpointProbe> {
  const client = createEtcdClient(endpoint, { timeoutMs, tls });
  const [status, members, read] = await Promise.all([
    attempt(() => client.maintenance.status()),
    attempt(() => client.cluster.memberList({})),
    attempt(() => client.get('health').exec()),
  ]);
  return { endpoint, client, status, members, read };
}

function toEndpointStatus(endpoint: string, s: IStatusResponse): EtcdEndpointStatus {
  return {
    endpoint,
    memberId: s.header?.member_id,
    // etcd reports leader 0 when it knows none (etcdctl 3.4 then omits the field).
    leader: s.leader && s.leader !== '0' ? s.leader : undefined,
    raftTerm: s.raftTerm,
    raftIndex: s.raftIndex,
    raftAppliedIndex: s.raftAppliedIndex,
    version: s.version,
    dbSize: s.dbSize === undefined ? undefined : Number(s.dbSize),
    isLearner: s.isLearner ?? false,
    errors: s.errors ?? [],
  };
}

function toMembers(res: IMemberListResponse): EtcdMember[] {
  // ids stay the decimal strings etcd3 decodes (longs: String), exact for uint64.
  return (res.members ?? []).map((m) => ({
    id: m.ID,
    name: m.name,
    peerURLs: m.peerURLs ?? [],
    clientURLs: m.clientURLs ?? [],
    isLearner: m.isLearner ?? false,
  }));
}

function toAlarms(res: IAlarmResponse): EtcdState['alarms'] {
  // etcd3 decodes the enum as its proto name ("NOSPACE"); alarmName also takes numbers and enum keys.
  return (res.alarms ?? []).map((a) => ({ memberId: String(a.memberID), alarm: alarmName(a.alarm) }));
}

/** Same verdict as `etcdctl endpoint health`: a linearizable read succeeds and no alarm is raised. */
function toHealth(p: EndpointProbe, alarms: EtcdState['alarms']): EtcdEndpointHealth {
  const took = `${p.read.ms.toFixed(3)}ms`;
  if (!p.read.ok) return { endpoint: p.endpoint, health: false, took, error: p.read.error };
  if (alarms.length) {
    return {
      endpoint: p.endpoint,
      health: false,
      took,
      error: `Active Alarm(s): ${alarms.map((a) => a.alarm).join(' ')}`,
    };
  }
  return { endpoint: p.endpoint, health: true, took };
}
