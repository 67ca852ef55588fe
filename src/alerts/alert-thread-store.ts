import type { Redis } from 'ioredis';
import { withAlertLock } from './alert-lock.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { RecordSeal } from '../store/create-record-seal.js';
import { waitForReplicas } from '../store/wait-for-replicas.js';

/** What a thread record needs of an incident: its thread key (alerts/incident.ts `Incident`). */
export interface ThreadIncident {
  key: string;
}

/**
 * Where incidents are read (alerts/alert-state-store.ts, passed in by the composition root: store/ does not import
 * alerts/).
 */
export interface IncidentSource<I extends ThreadIncident> {
  load(cluster: string): Promise<{ state: { incidents: Record<string, I> } }>;
}

/** Where an incident's thread lives in Slack and how far it was posted. */
export interface AlertThread {
  channel: string;
  /** ts of the parent message. */
  ts: string;
  /** Highest change seq already posted; retried notify jobs skip everything up to it. */
  postedSeq: number;
  /** Opaque proposal ids of the parent's fix buttons, by proposal content, so updates reuse them. */
  proposalIds: Record<string, string>;
}

/** An incident's thread opened for posting: under its lock, with the incident as stored and its thread record. */
export interface OpenThread<I extends ThreadIncident = ThreadIncident> {
  /** The incident (root-cause fingerprint) as stored; undefined when it was forgotten. */
  incident?: I;
  /** Its thread record; undefined when nothing was posted yet. */
  thread?: AlertThread;
  /** Record a post right after Slack accepted it (before the notify job completes). */
  save(thread: AlertThread): Promise<void>;
}

/** Thread map in Redis: written right after each Slack call succeeds, before the notify job completes. */
export interface AlertThreadStore<I extends ThreadIncident = ThreadIncident> {
  get(cluster: string, incidentKey: string): Promise<AlertThread | undefined>;
  set(cluster: string, incidentKey: string, thread: AlertThread): Promise<void>;
  /**
   * Run `fn` holding the incident's lock (alert-lock.ts: one poster per thread across workers, so
   * replies stay in order and none is posted twice), with the incident read from the alert state and
   * its thread record: everything a poster needs, read in one place.
   */
  withThread<T>(cluster: string, fingerprint: string, fn: (open: OpenThread<I>) => Promise<T>): Promise<T>;
}

/** Threads outlive their incident for 30 days (a reopened finding within the flap window reuses it). */
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Keys: `<keyPrefix>alert-thread:<cluster>:<incidentKey>` (JSON, with `mac` when sealed); the lock
 * `<keyPrefix>alert-lock:<cluster>:<fingerprint>`.
 */
export function createAlertThreadStore<I extends ThreadIncident = ThreadIncident>(
  redis: Redis,
  opts: {
    keyPrefix: string;
    states?: IncidentSource<I>;
    seal?: RecordSeal;
    onTampered?: (cluster: string, incidentKey: string) => void;
  },
): AlertThreadStore<I> {
  const key = (cluster: string, incidentKey: string) => `${opts.keyPrefix}alert-thread:${cluster}:${incidentKey}`;
  const sealed = (cluster: string, incidentKey: string, t: AlertThread) => ({
    cluster,
    incidentKey,
    channel: t.channel,
    ts: t.ts,
    postedSeq: t.postedSeq,
    proposalIds: t.proposalIds,
  });
  const store: AlertThreadStore<I> = {
    async get(cluster, incidentKey) {
      const raw = await redis.get(key(cluster, incidentKey));
      if (!raw) return undefined;
      let stored: AlertThread & { mac?: string };
      try {
        stored = JSON.parse(raw) as AlertThread & { mac?: string };
      } catch {
        return undefined;
      }
      const { mac, ...thread } = stored;
      // Sealed: a record that does not verify names a message the bot must not edit or reply under;
      // it is ignored (the next change opens a new thread in the configured channel).
      if (opts.seal && !opts.seal.verify(sealed(cluster, incidentKey, thread), mac)) {
        opts.onTampered?.(cluster, incidentKey);
        return undefined;
      }
      return thread;
    },
    async set(cluster, incidentKey, thread) {
      const mac = opts.seal?.sign(sealed(cluster, incidentKey, thread));
      await redis.set(
        key(cluster, incidentKey),
        JSON.stringify({ ...thread, ...(mac ? { mac } : {}) }),
        'EX',
        TTL_SECONDS,
      );
      // What Slack already shows must survive a failover, or a retried job posts it again.
      await waitForReplicas(redis);
    },
    withThread(cluster, fingerprint, fn) {
      const states = opts.states;
      if (!states)
        throw new K8sHealthError(
          'E_ALERT_THREAD_NO_SOURCE',
          'alert thread store: withThread needs the incident source (states) it was created without',
        );
      return withAlertLock(redis, { keyPrefix: opts.keyPrefix, name: `${cluster}:${fingerprint}` }, async () => {
        const { state } = await states.load(cluster);
        const incident = state.incidents[fingerprint];
        const thread = incident ? await store.get(cluster, incident.key) : undefined;
        return fn({
          incident,
          thread,
          save: (t) => (incident ? store.set(cluster, incident.key, t) : Promise.resolve()),
        });
      });
    },
  };
  return store;
}
