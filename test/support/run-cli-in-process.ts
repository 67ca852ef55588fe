import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

/** Run the `k8s-health` command line in this process with only `env`; collects stdout/stderr. */
export async function runCliInProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) =>
    new Writable({ write: (chunk, _enc, done) => (add(String(chunk)), done()) });
  const code = await runCli(args, { env, stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) });
  return { code, stdout, stderr };
}
