import type { ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { ServeMetrics } from './create-metrics.js';
import { describeError } from '../../errors/describe-error.js';
import { K8sHealthError } from '../../errors/k8s-health-error.js';

/** A probe that does not answer within this is "not ready" (kubelet probes time out at 1 s by default). */
const PROBE_TIMEOUT_MS = 900;

/**
 * `/healthz` (the process is up), `/readyz` (Redis answers PING, Slack answers auth.test and, when
 * this process runs them, the in-process workers are running) and
 * `/metrics` (Prometheus). Served by Bolt's HTTPReceiver as custom routes in HTTP mode, and by a
 * small http server on PORT in Socket Mode.
 */
export function createHealthRoutes(deps: {
  redis: Redis;
  /**
   * Why Redis is known to be unreachable right now (the outage reporter's view), if it is: answered without waiting on
   * a PING.
   */
  redisProblem?: () => string | undefined;
  /** Calls Slack's auth.test (late-bound: the routes exist before the Bolt app that owns the client). */
  slackAuthTest: () => Promise<unknown>;
  metrics: ServeMetrics;
  /**
   * Clusters unscanned for more than three scan intervals (jobs/start-scan-watchdog.ts): listed, readiness unchanged.
   */
  unscanned?: () => { cluster: string; scanAgeSeconds: number }[];
  /** In-process workers, when this process runs them: part of readiness (late-bound, like Slack). */
  workers?: () => Promise<{ ready: boolean; workers: string }>;
}): CustomRoute[] {
  return [
    { path: '/healthz', method: ['GET'], handler: (_req, res) => send(res, 200, 'text/plain', 'ok\n') },
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_req, res) => {
        void Promise.all([
          probe(async () => {
            const problem = deps.redisProblem?.();
            if (problem) throw new K8sHealthError('E_STATE_STORE_UNREACHABLE', problem);
            if ((await deps.redis.ping()) !== 'PONG') throw new K8sHealthError('E_REDIS_PING', 'unexpected PING reply');
          }),
          probe(async () => {
            await deps.slackAuthTest();
          }),
          deps.workers
            ? deps.workers().then(
                (w) => (w.ready ? 'ok' : w.workers),
                (err: unknown) => describeError(err),
              )
            : Promise.resolve(undefined),
        ]).then(([redis, slack, workers]) => {
          const ok = redis === 'ok' && slack === 'ok' && (workers === undefined || workers === 'ok');
          // Unscanned clusters are named but do not make serve unready: pulling it out of its Service would scan
          // nothing.
          const unscanned = deps.unscanned?.() ?? [];
          send(
            res,
            ok ? 200 : 503,
            'application/json',
            `${JSON.stringify({ ready: ok, redis, slack, ...(workers === undefined ? {} : { workers }), ...(unscanned.length ? { unscanned } : {}) })}\n`,
          );
        });
      },
    },
    {
      path: '/metrics',
      method: ['GET'],
      handler: (_req, res) => {
        deps.metrics.registry.metrics().then(
          (body) => send(res, 200, deps.metrics.registry.contentType, body),
          (err: unknown) => send(res, 500, 'text/plain', `metrics failed: ${describeError(err)}\n`),
        );
      },
    },
  ];
}

async function probe(check: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (err) {
    return describeError(err);
  } finally {
    clearTimeout(timer);
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}
