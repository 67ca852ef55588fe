import { K8sHealthError } from '../errors/k8s-health-error.js';

/** Bad command-line usage: exit status 2 with this one line. */
export class UsageError extends K8sHealthError {
  override readonly name = 'UsageError';
  declare readonly code: 'E_USAGE';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_USAGE', message, options);
  }
}
