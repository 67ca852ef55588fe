import { K8sHealthError } from '../errors/k8s-health-error.js';

/** A config file that cannot be used; `message` names every bad key with its path. */
export class ConfigError extends K8sHealthError {
  override readonly name = 'ConfigError';
  declare readonly code: 'E_CONFIG';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CONFIG', message, options);
  }
}
