import { existsSync } from 'node:fs';

export const DEFAULT_CONFIG_FILE = 'config/config.yaml';

/** The config file: --config, else $K8S_HEALTH_CONFIG, else ./config/config.yaml when it exists; else none. */
export function findConfigFile(flag: string | undefined, env: Record<string, string | undefined>): string | undefined {
  return flag ?? env.K8S_HEALTH_CONFIG ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
}
