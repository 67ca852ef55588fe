/**
 * `k8s-health audit | head`: once the reader has gone, a write to the pipe fails with EPIPE, and an
 * 'error' event nobody handles prints a stack trace and exits 1. Output nobody reads is not an
 * error: exit at once, quietly, with status 0 (as when everything was read). Any other stream error
 * stays what it was.
 */
export function exitOnBrokenPipe(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (c) => process.exit(c),
): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return exit(0);
    throw err;
  });
}
