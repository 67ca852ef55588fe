import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.js';
import { describeError } from '../errors/describe-error.js';
import { AlertmanagerInputError } from './alertmanager-input-error.js';
import type { AlertmanagerMetrics } from './create-alertmanager-metrics.js';
import { parseWebhook } from './parse-webhook.js';
import type { AlertmanagerNotification, QueuedWebhook } from './webhook-payload.js';

/** The path Alertmanager's `webhook_configs` url points at. */
export const ALERTMANAGER_PATH = '/alertmanager';

/** A route of serve's HTTP port (the shape of Bolt's CustomRoute, and of serve's own small server in Socket Mode). */
export interface AlertmanagerRoute {
  path: string;
  method: string[];
  /**
   * The backstop cap the HTTP server in front applies before the route reads anything: twice
   * alertmanager.maxBodyBytes, so that the route itself refuses what is over the cap with its own line,
   * counter and log, and the server still drops what is far beyond it.
   */
  bodyLimit: number;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * `POST /alertmanager`: Alertmanager's webhook (docs/alertmanager.md). Without a token configured
 * (K8S_HEALTH_ALERTMANAGER_TOKEN) the endpoint does not exist (404). A request must carry
 * `Authorization: Bearer <token>` (compared in constant time); its body is read up to `maxBodyBytes`,
 * parsed (payload version 4) and handed to `enqueue` (the alert intake, whose forwarder feeds the
 * `k8s-health-alerts` queue): the answer comes as soon as Redis holds it, so Alertmanager never waits for
 * Slack. A refused body is a 4xx with one line, counted and logged, nothing stored (Alertmanager does not
 * retry a 4xx); a store that does not take it is a 503, which Alertmanager retries.
 */
export function createAlertmanagerRoute(deps: {
  token?: string;
  maxBodyBytes: number;
  maxAlertsPerRequest: number;
  /**
   * Resolves once the notification is stored (Redis): only then is it acknowledged. `raw` is the body's bytes as
   * received (`queued.body` is their text), for a store that keeps them as they are without encoding the text again.
   */
  enqueue: (n: AlertmanagerNotification, queued: QueuedWebhook, raw: Buffer) => Promise<void>;
  metrics?: AlertmanagerMetrics;
  log: Logger;
  now?: () => Date;
}): AlertmanagerRoute {
  const expected = deps.token ? digest(deps.token) : undefined;
  const now = deps.now ?? (() => new Date());
  return {
    path: ALERTMANAGER_PATH,
    method: ['POST'],
    bodyLimit: 2 * deps.maxBodyBytes,
    handler: (req, res) => {
      if (!expected)
        return void answer(res, 404, 'not found: set K8S_HEALTH_ALERTMANAGER_TOKEN to receive Alertmanager webhooks');
      const refuse = (err: AlertmanagerInputError, status: number) => {
        deps.metrics?.requests.inc({ outcome: err.reason });
        deps.log.warn({ reason: err.reason, err }, 'alertmanager webhook refused');
        answer(res, status, err.message);
      };
      const auth = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
      if (!auth || !timingSafeEqual(digest(auth[1]!.trim()), expected)) {
        req.resume();
        return refuse(
          new AlertmanagerInputError(
            'unauthorized',
            'missing or wrong bearer token: set http_config.authorization.credentials to K8S_HEALTH_ALERTMANAGER_TOKEN',
          ),
          401,
        );
      }
      const tooLarge = () =>
        new AlertmanagerInputError(
          'too-large',
          `body over alertmanager.maxBodyBytes (${deps.maxBodyBytes} bytes): lower max_alerts in the webhook receiver`,
        );
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > deps.maxBodyBytes) {
        req.resume();
        return refuse(tooLarge(), 413);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > deps.maxBodyBytes) {
          done = true;
          chunks.length = 0;
          refuse(tooLarge(), 413);
          return;
        }
        chunks.push(chunk);
      });
      req.on('error', () => {
        done = true;
      });
      req.on('end', () => {
        if (done) return;
        done = true;
        const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
        chunks.length = 0;
        const body = raw.toString('utf8');
        const queued: QueuedWebhook = { body, receivedAt: now().toISOString(), maxAlerts: deps.maxAlertsPerRequest };
        let notification: AlertmanagerNotification;
        try {
          notification = parseWebhook(body, queued);
        } catch (err) {
          if (err instanceof AlertmanagerInputError) return refuse(err, 400);
          throw err;
        }
        Promise.resolve()
          .then(() => deps.enqueue(notification, queued, raw))
          .then(
            () => {
              deps.metrics?.requests.inc({ outcome: 'accepted' });
              answer(res, 200, 'queued');
            },
            (err: unknown) => {
              deps.metrics?.requests.inc({ outcome: 'unavailable' });
              deps.log.error({ err }, 'alertmanager webhook not queued (Alertmanager retries)');
              answer(res, 503, `not queued: ${describeError(err)}`);
            },
          );
      });
    },
  };
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

function answer(res: ServerResponse, status: number, line: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  res.end(`${line}\n`);
}
