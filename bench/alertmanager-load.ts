import http from 'node:http';
import { summarize } from './bench-stats.js';

/**
 * Bench child (target 12): the load generator, in its own process so the client's work does not
 * count against the bot's event loop. A warm-up round, then ROUNDS timed rounds of 50 concurrent Alertmanager webhooks
 * of 100 alerts each (payload version 4, bearer token); ack = time until the endpoint's answer. argv: ENDPOINT TOKEN
 * ROUNDS NODE.
 */
const [endpoint, token, roundsArg, node] = process.argv.slice(2);
const RULES = ['KubeNodeNotReady', 'KubeNodeUnreachable', 'KubeletDown', 'TargetDown', 'KubeAPIErrorBudgetBurn'];
const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });

/**
 * The body of one webhook, built before any request of its round starts (building is the client's work, not the bot's).
 */
function bodyOf(round: number, req: number): string {
  const alerts = Array.from({ length: 100 }, (_, i) => ({
    status: 'firing',
    labels: {
      alertname: RULES[i % RULES.length],
      cluster: 'tkc-prod',
      node,
      severity: 'warning',
      replica: `${round}-${req}-${i}`,
    },
    annotations: { summary: 'bench' },
    startsAt: '2026-11-28T01:00:00Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: '',
    fingerprint: ((round + 1) * 1_000_000 + req * 1000 + i).toString(16).padStart(16, '0'),
  }));
  return JSON.stringify({
    version: '4',
    groupKey: `{}:{round="${round}",req="${req}"}`,
    status: 'firing',
    receiver: 'k8s-health',
    groupLabels: {},
    commonLabels: {},
    externalURL: '',
    truncatedAlerts: 0,
    alerts,
  });
}

function webhook(body: string): Promise<number> {
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    authorization: `Bearer ${token}`,
  };
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const r = http.request(endpoint!, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - t)
          : reject(new Error(`webhook answered ${res.statusCode}`)),
      );
    });
    r.on('error', reject);
    r.end(body);
  });
}

const rounds = Number(roundsArg ?? 3);
const ackMs: number[] = [];
// Round 0 warms up (connections, JIT) and is not timed; its alerts are shown and counted like the others.
for (let round = 0; round <= rounds; round++) {
  const bodies = Array.from({ length: 50 }, (_, req) => bodyOf(round, req));
  const times = await Promise.all(bodies.map(webhook));
  if (round > 0) ackMs.push(...times);
  await new Promise((r) => setTimeout(r, 300));
}
agent.destroy();
process.send!({ ackMs: summarize(ackMs), sent: (rounds + 1) * 50 * 100 }, () => process.exit(0));
