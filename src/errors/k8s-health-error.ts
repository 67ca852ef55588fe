import type { ErrorCode } from './error-codes.js';

/**
 * The one base of our errors (docs/development.md, "Errors"): a stable `code` for machines (tests, metrics, the
 * boundary translations), a `message` that is one line a user can act on, and the original error as
 * `cause`. Every error class of the bot extends it (ConfigError, DumpError, KubeError, RemediateError,
 * UsageError, SlackStartupError, QueuedScanTimeoutError, AlertLockTimeoutError). Boundaries translate
 * into it (a Kubernetes or etcd failure → KubeError / RemediateError) and out of it (→ BullMQ
 * UnrecoverableError when retrying cannot help, → an ephemeral Slack reply, → exit status 2 and one
 * line on stderr); {@link describeError} is how anything prints an error.
 */
export class K8sHealthError extends Error {
  override readonly name: string = 'K8sHealthError';
  constructor(
    /**
     * Stable, upper-case `E_…` code, one of error-codes.ts: part of the interface (tests and operators match on it).
     */
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Is this one of our coded errors (any subclass)? */
export function isK8sHealthError(err: unknown): err is K8sHealthError {
  return err instanceof K8sHealthError;
}
