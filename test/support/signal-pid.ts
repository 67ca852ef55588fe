/**
 * `process.kill` for test-owned processes, refusing anything but a positive pid.
 *
 * `process.kill(0, sig)` signals the caller's whole process group (jest, npm and the CI
 * script), and a negative pid a whole group: a pid read from a half-written pidfile
 * (`Number('')` is 0) once took down a CI run with SIGTERM (exit 143). Every test helper
 * that stops a server by pid goes through here.
 */
export function signalPid(pid: number, signal: NodeJS.Signals | 0): void {
  if (!Number.isInteger(pid) || pid <= 0) {
    throw new Error(`refusing to signal pid ${String(pid)}: not a single test-owned process`);
  }
  process.kill(pid, signal);
}

/** True while `pid` exists (signal 0 probe); false for a gone or invalid pid. */
export function pidAlive(pid: number): boolean {
  try {
    signalPid(pid, 0);
    return true;
  } catch {
    return false;
  }
}
