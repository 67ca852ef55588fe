#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (prepare) or `npm run build`.
import { runCli } from '../dist/cli/run-cli.js';
import { exitOnBrokenPipe } from '../dist/cli/exit-on-broken-pipe.js';

exitOnBrokenPipe(process.stdout);

// A promise rejected where nobody awaits it (e.g. inside a library's request handler, seen with
// Bolt 5 on a signed but malformed interaction payload) must not take the whole bot down during an
// incident: report it in one line and keep serving. Our own code awaits its promises.
process.on('unhandledRejection', (reason) => {
  const line = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  process.stderr.write(`k8s-health: contained an unhandled rejection: ${line.split('\n')[0]}\n`);
});

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
// The command is done: a socket or retry timer of a Redis that stayed unreachable must not keep the
// process alive past it (Kubernetes would SIGKILL it after its grace period). Normally the process
// has nothing left and exits before this fires.
setTimeout(() => process.exit(), 1000).unref();
