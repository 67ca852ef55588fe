/** What a CLI command may touch: the composition root passes the real process streams and env. */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Clock (tests inject one). */
  now?: () => Date;
}
