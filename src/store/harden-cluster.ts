import type { EventEmitter } from 'node:events';
import type { Cluster } from 'ioredis';
import { K8sHealthError } from '../errors/k8s-health-error.js';

/**
 * An ioredis `Cluster` whose connect() always settles and whose end is final, so that nothing waiting on
 * it — BullMQ's blocking connections above all — can be parked for good after a master dies. The same is
 * done to every duplicate made of it (BullMQ's blocking connections, the QueueEvents connections).
 *
 * 1. connect() resolves only when its own ready check passes. When the check fails — CLUSTER INFO lands on
 *    the master just killed, or answers cluster_state:fail while the replica is being promoted, or a
 *    disconnect comes between the slot refresh and the check — ioredis reconnects by itself and the
 *    cluster gets ready, but the promise of that connect() call never settles. BullMQ awaits exactly that
 *    promise when it recovers a blocking connection whose BZPOPMIN was stuck on the dead master
 *    (RedisConnection.reconnect): the worker stopped taking jobs of its queue in this process, and
 *    Worker.close() never returned. Here connect() also settles at the cluster's next 'ready' (resolved)
 *    or 'end' (rejected as a closed connection, which BullMQ retries).
 * 2. Every node connection that closes after the cluster was disconnected reports the node pool empty,
 *    and ioredis moves an ended cluster back to 'close' — a state nothing leaves, where BullMQ waits for a
 *    'ready' or 'end' that never comes. Here a late empty pool leaves an ended cluster ended; connect()
 *    starts it again as before.
 */
export function hardenCluster(cluster: Cluster): Cluster {
  const connect = cluster.connect.bind(cluster);
  cluster.connect = () =>
    new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        cluster.off('ready', onReady);
        cluster.off('end', onEnd);
        if (err) reject(err);
        else resolve();
      };
      // setStatus emits on the next tick: an 'end' of a disconnect made just before this connect() arrives
      // when the status already says 'connecting', and is not this attempt's end.
      const onReady = () => {
        if (cluster.status === 'ready') settle();
      };
      const onEnd = () => {
        // The message is ioredis' own, so BullMQ and the outage reporter treat it as a closed connection.
        if (cluster.status === 'end') settle(new K8sHealthError('E_REDIS_CLUSTER_CLOSED', 'Connection is closed.'));
      };
      cluster.on('ready', onReady);
      cluster.on('end', onEnd);
      connect().then(
        () => settle(),
        (err: Error) => settle(err),
      );
    });
  const pool = (cluster as unknown as { connectionPool: EventEmitter }).connectionPool;
  for (const drained of pool.listeners('drain') as ((...args: unknown[]) => void)[]) {
    pool.off('drain', drained);
    pool.on('drain', (...args: unknown[]) => {
      if (cluster.status !== 'end') drained(...args);
    });
  }
  const duplicate = cluster.duplicate.bind(cluster);
  cluster.duplicate = (...args: Parameters<Cluster['duplicate']>) => hardenCluster(duplicate(...args));
  return cluster;
}
