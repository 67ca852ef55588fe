import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAlertmanagerRoute } from '../src/alertmanager/create-alertmanager-route.js';
import { composeJobs } from '../src/compose/compose-jobs.js';
import { configSchema, type Config } from '../src/config/config-schema.js';
import { silentLogger } from '../src/log/logger.js';

/**
 * Bench child (target 12): `POST /alertmanager` as `serve --no-workers` runs it (the Helm chart's
 * layout: the workers are other pods): the route and its push onto the alert intake only. Answers its endpoint
 * over IPC; stops on a `stop` message. argv: REDIS_URL TOKEN.
 */
const [redisUrl, token] = process.argv.slice(2);
const config = configSchema.parse({}) as Config;
const jobs = composeJobs({ config, redisUrl: redisUrl!, runWorkers: false, log: silentLogger });
const route = createAlertmanagerRoute({
  token,
  maxBodyBytes: config.alertmanager.maxBodyBytes,
  maxAlertsPerRequest: config.alertmanager.maxAlertsPerRequest,
  enqueue: jobs.enqueueAlertmanager,
  log: silentLogger,
});
const server = http.createServer((req, res) =>
  req.url === route.path ? route.handler(req, res) : res.writeHead(404).end(),
);
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
process.on('message', (m) => {
  if ((m as { type?: string }).type !== 'stop') return;
  server.close();
  void jobs.close().finally(() => process.exit(0));
});
process.send!({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}` });
