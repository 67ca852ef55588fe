import { noop } from 'cockatiel';
import { Etcd3 } from 'etcd3';

/** PEM material for an etcd client (already read from the config's caFile/certFile/keyFile). */
export interface EtcdTlsMaterial {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

/**
 * An etcd3 client pinned to ONE endpoint, for probing.
 *
 * - One endpoint per client: Maintenance.Status answers for the host it reaches, so a pool of
 *   hosts would mix members up.
 * - No retries and no circuit breaker: etcd3's default host policy opens a breaker after a
 *   timeout and then fails every call with BrokenCircuitError (docs/development.md "Stack notes"), which would
 *   hide the real error and break the next scan. A probe must report what the member says now.
 * - Every unary call gets a deadline, so a paused (SIGSTOP) or blackholed member cannot hang a scan.
 */
export function createEtcdClient(endpoint: string, opts: { timeoutMs: number; tls?: EtcdTlsMaterial }): Etcd3 {
  const { tls } = opts;
  const hasTls = tls && (tls.ca || tls.cert || tls.key);
  return new Etcd3({
    hosts: [endpoint],
    // grpc-js treats a missing root certificate as "use the system roots", hence the cast.
    credentials: hasTls ? { rootCertificate: tls.ca as Buffer, certChain: tls.cert, privateKey: tls.key } : undefined,
    faultHandling: { host: () => noop, global: noop },
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + opts.timeoutMs }),
  });
}
