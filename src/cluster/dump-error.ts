/** A dump directory that cannot be used at all (missing, empty, not a directory). One line, names the path. */
export class DumpError extends Error {
  override readonly name = 'DumpError';
  readonly code = 'E_DUMP';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
