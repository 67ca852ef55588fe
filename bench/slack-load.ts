import http from 'node:http';
import { signSlackRequest, slashCommandBody } from '../test/support/sign-slack-request.js';
import { summarize } from './bench-stats.js';

/**
 * Bench child (target 1): the load generator, in its own process so the client's own work does not
 * count against the bot's event loop. ROUNDS rounds of 50 concurrent signed `/k8s-health` commands;
 * ack = time until Bolt's HTTP answer. argv: ENDPOINT SECRET RESPONSE_URL ROUNDS.
 */
const [endpoint, secret, responseUrl, roundsArg] = process.argv.slice(2);

// node:http with keep-alive: the lightest client, so the measure is the bot's, not the client's.
const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });

function command(): Promise<number> {
  const body = slashCommandBody({ text: 'fleet-synthetic', response_url: responseUrl! });
  const headers = {
    'Content-Type': 'application/x-www-form-urlencoded',
    'Content-Length': String(Buffer.byteLength(body)),
    ...signSlackRequest(secret!, body),
  };
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = http.request(endpoint!, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`Bolt answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

await Promise.all(Array.from({ length: 50 }, command)); // warm-up: connections, JIT
await new Promise((r) => setTimeout(r, 500));
const ackMs: number[] = [];
for (let r = 0; r < Number(roundsArg ?? 20); r++) {
  ackMs.push(...(await Promise.all(Array.from({ length: 50 }, command))));
  await new Promise((resolve) => setTimeout(resolve, 300)); // let the round's answers drain
}
agent.destroy();
process.send!({ ackMs: summarize(ackMs) }, () => process.exit(0));
