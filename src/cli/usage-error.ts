/** Bad command-line usage: exit status 2 with this one line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'E_USAGE';
}
