import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeKubeApi } from '../test/support/fake-kube-api/start-fake-kube-api.js';
import { createSyntheticCluster, DEFAULT_SCALE, FLEET_SCALE, SMALL_SCALE } from '../test/support/synthetic-cluster.js';

/**
 * Bench child process: the synthetic cluster served by the fake Kubernetes API server, in its own
 * process so its memory and CPU never count against the bot's. Tells the parent (IPC) its URL and
 * a control URL whose GET /requests answers how many API requests the fake has served so far
 * (target 4 counts them per command). argv: default|small|fleet [DELAY_MS].
 */
const scale = process.argv[2] === 'small' ? SMALL_SCALE : process.argv[2] === 'fleet' ? FLEET_SCALE : DEFAULT_SCALE;
const started = Date.now();
const objects = createSyntheticCluster(scale);
const api = await startFakeKubeApi({ objects });
objects.length = 0; // the store keeps its own copies
// argv[3]: delay before every answer (ms) — a remote API server's round trip, for target 6.
api.delayMs = Number(process.argv[3] ?? 0);
const control = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ requests: api.requests.length }));
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
process.send?.({ type: 'ready', url: api.url, controlUrl, scale, generateMs: Date.now() - started });
process.on('message', (msg: { type?: string }) => {
  if (msg?.type !== 'stop') return;
  control.close();
  // The listener returns nothing (process.on ignores a promise): a failed close ends the child with its error.
  api.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
