import { K8sHealthError } from '../../errors/k8s-health-error.js';

/** A dump directory that cannot be used at all (missing, empty, not a directory). One line, names the path. */
export class DumpError extends K8sHealthError {
  override readonly name = 'DumpError';
  declare readonly code: 'E_DUMP';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_DUMP', message, options);
  }
}
