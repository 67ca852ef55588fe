/** CLI entry (composition root). Filled in by the foundation work: check, dump, serve, worker, audit. */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  io.stderr.write(`k8s-health: not implemented yet (${argv.join(' ')})\n`);
  return 2;
}
