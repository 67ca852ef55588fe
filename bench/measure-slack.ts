import { fork } from 'node:child_process';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createMetrics } from '../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../src/slack/receive/create-slack-app.js';
import { createProposalStore } from '../src/store/proposal-store.js';
import { registerListeners } from '../src/slack/register-listeners.js';
import { createReportStore } from '../src/store/report-store.js';
import { startFakeSlackApi } from '../test/support/fake-slack-api.js';
import { signSlackRequest, slashCommandBody } from '../test/support/sign-slack-request.js';
import { startRedis } from '../test/support/start-redis.js';
import { createLogger } from '../src/log/create-logger.js';
import { summarize } from './bench-stats.js';
import { scanSynthetic, syntheticConfig } from './scan-synthetic.js';

/**
 * Bench child (targets 1 and 4): the real Bolt HTTP receiver with the real listeners, a real Redis
 * holding the report of one live scan of the synthetic cluster, and a fake Slack Web API.
 * Target 1: ROUNDS rounds of 50 concurrent signed `/k8s-health` requests from slack-load.ts.
 * Target 4: sequential commands, time until the answer is posted, and API requests the fake
 * Kubernetes API server saw meanwhile (read from its control URL).
 * argv: KUBE_URL CONTROL_URL ROUNDS.
 */
const [kubeUrl, controlUrl, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 20);
const SECRET = 'bench-signing-secret';
const TOKEN = 'xoxb-bench-token';
const config = await syntheticConfig(kubeUrl!);
const redisServer = await startRedis();
const redis = new Redis(redisServer.url);
const slack = await startFakeSlackApi({ validToken: TOKEN });
const reports = createReportStore(redis, { keyPrefix: 'bench:' });
let answered: (() => void) | undefined;
const { app } = await createSlackApp({
  botToken: TOKEN,
  signingSecret: SECRET,
  apiUrl: slack.apiUrl,
  logLevel: 'error',
});
registerListeners(app, {
  config,
  reports,
  proposals: createProposalStore(redis, { keyPrefix: 'bench:' }),
  requestScan: createScanRequester(async () => (await scanSynthetic(config)).report, reports),
  metrics: createMetrics({ defaultMetrics: false }),
  now: () => new Date(),
  // handleHealthCommand logs "command answered" right after the answer is posted: that is our stopwatch.
  log: createLogger({
    level: 'info',
    destination: { write: (line: string) => void (line.includes('"msg":"command answered"') && answered?.()) },
  }),
});
const server = (await app.start(0)) as Server;
const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;

// Only the report and the scan's timings are kept: the setup scan's snapshot (138,000 objects at the
// default scale) is let go before the load, so the measure is the command path's, not the major GCs
// of a heap that a `serve` process never holds between scans (see docs/performance.md, target 1).
const liveScanMs = await (async () => {
  const scan = await scanSynthetic(config);
  await reports.save(scan.report);
  return scan.collectMs + scan.analyzeMs;
})();

async function command(): Promise<number> {
  const body = slashCommandBody({ text: 'fleet-synthetic', response_url: slack.responseUrl() });
  const t = performance.now();
  const res = await fetch(endpoint, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`Bolt answered ${res.status}`);
  return performance.now() - t;
}
const requests = async () => ((await (await fetch(`${controlUrl}/requests`)).json()) as { requests: number }).requests;

// Target 1: ack latency under 50 concurrent commands, sent from another process; and, as the
// reference of the same run, Bolt's own floor: the same receiver with a listener that only acks.
const load = (url: string) =>
  new Promise<unknown>((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./slack-load.js', import.meta.url)), [
      url,
      SECRET,
      slack.responseUrl(),
      String(rounds),
    ]);
    child.once('message', (m: { ackMs: unknown }) => resolve(m.ackMs));
    child.once('exit', (code) => reject(new Error(`slack-load exited with ${code}`)));
  });
const ackMs = await load(endpoint);
const bare = (await createSlackApp({ botToken: TOKEN, signingSecret: SECRET, apiUrl: slack.apiUrl, logLevel: 'error' }))
  .app;
bare.command('/k8s-health', async ({ ack }) => ack());
const bareServer = (await bare.start(0)) as Server;
const bareAckMs = await load(`http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/slack/events`);
await bare.stop();

// Target 4: answered from the stored report, one at a time, counting API requests meanwhile.
const before = await requests();
const answerMs: number[] = [];
for (let i = 0; i < 30; i++) {
  const done = new Promise<void>((resolve) => (answered = resolve));
  const t = performance.now();
  await command();
  await done;
  answerMs.push(performance.now() - t);
}
const apiRequests = (await requests()) - before;

await app.stop();
redis.disconnect();
await slack.close();
await redisServer.stop();
process.send!(
  { ackMs, bareAckMs, answerMs: summarize(answerMs), apiRequests, commands: answerMs.length, liveScanMs },
  () => process.exit(0),
);
