import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EnvOptions } from '../config/read-env-options.js';
import { describeError } from '../errors/describe-error.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import { createProcessLogger } from '../log/create-logger.js';
import { listSandboxScenarios } from '../sandbox/list-sandbox-scenarios.js';
import { startSandboxPage } from '../sandbox/start-sandbox-page.js';
import { SandboxRedisError, startSandboxRedis } from '../sandbox/start-sandbox-redis.js';
import { startSandboxSlack } from '../sandbox/start-sandbox-slack.js';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';
import { waitForSignal } from './wait-for-signal.js';

/** The bundled scenarios, from the checkout this module runs in (src/cli or dist/cli → repository root). */
const SCENARIOS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/scenarios');

/**
 * `k8s-health sandbox`: a local web page that plays an incident channel, with no Slack
 * account, no cluster and no Redis to set up (docs/sandbox.md). Prints the page's URL and runs until
 * SIGINT/SIGTERM (exit 0); exit 2 with one line when it cannot start (a REDIS_URL it must not
 * use, a bad scenario, PORT taken); exit 1 with one line if its embedded store dies under it.
 */
export async function runSandbox(
  opts: { env: EnvOptions; portSet: boolean; redisUrlSet: boolean; scenario?: string },
  io: CliIo,
  deps: { stopSignal?: Promise<unknown>; onStarted?: (url: string) => void } = {},
): Promise<number> {
  const scenarios = listSandboxScenarios(SCENARIOS_DIR);
  const first = opts.scenario ? scenarios.find((s) => s.name === opts.scenario) : scenarios[0];
  if (!first)
    throw new UsageError(
      `sandbox: unknown scenario "${opts.scenario}": one of ${scenarios.map((s) => s.name).join(', ')}`,
    );
  // Logs on stderr at LOG_LEVEL (stdout is the one line with the page's URL): JSON lines, pretty and
  // neutralized on a terminal (log/create-logger.ts).
  const { log } = await createProcessLogger({
    level: opts.env.logLevel,
    destination: io.stderr,
    base: { process: 'sandbox' },
  });
  let redis;
  try {
    redis = await startSandboxRedis({ redisUrl: opts.redisUrlSet ? opts.env.redisUrl : undefined, log });
  } catch (err) {
    if (err instanceof SandboxRedisError) throw new UsageError(`sandbox: ${err.message}`);
    throw err;
  }
  let clock = () => new Date();
  const slack = await startSandboxSlack({ clock: () => clock() });
  let page;
  try {
    page = await startSandboxPage({
      port: opts.portSet ? opts.env.port : 0,
      redis,
      slack,
      scenarios,
      scenario: first,
      setClock: (c) => (clock = c),
      log,
    });
  } catch (err) {
    await slack.close();
    await redis.stop();
    throw new UsageError(
      `sandbox: cannot start${opts.portSet ? ` on PORT ${opts.env.port}` : ''}: ${describeError(err)}`,
    );
  }
  io.stdout.write(
    `k8s-health sandbox: open ${page.url} (loopback only; Redis: ${redis.kind === 'embedded' ? 'embedded Valkey' : 'REDIS_URL'}; Ctrl-C stops it)\n`,
  );
  deps.onStarted?.(page.url);
  const lost = await Promise.race([(deps.stopSignal ?? waitForSignal()).then(() => undefined), redis.lost]);
  if (lost) {
    // Nothing works without the store, and a graceful stop would wait on it (BullMQ workers
    // reconnect forever): say why in one line and end the process.
    io.stderr.write(`k8s-health sandbox: ${neutralizePlainText(lost)}\n`);
    process.exit(1);
  }
  await page.stop();
  await slack.close();
  await redis.stop();
  return 0;
}
