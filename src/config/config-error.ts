/** A config file that cannot be used; `message` names every bad key with its path. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'E_CONFIG';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
