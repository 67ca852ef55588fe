import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { configSchema, type Config } from './config-schema.js';
import { ConfigError } from './config-error.js';
import { describeError } from '../errors/describe-error.js';

/** Validate an already-parsed config object; every issue is reported as `key.path: message`. */
export function parseConfig(raw: unknown, baseDir: string, source = 'config'): Config {
  const result = configSchema.safeParse(raw ?? {});
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${formatPath(i.path) || '(top level)'}: ${i.message}`);
    throw new ConfigError(`${source}: ${lines.join('; ')}`);
  }
  const config = result.data;
  const names = new Set<string>();
  for (const [i, c] of config.clusters.entries()) {
    if (names.has(c.name)) throw new ConfigError(`${source}: clusters[${i}].name: duplicate cluster name "${c.name}"`);
    names.add(c.name);
    if (c.dump) c.dump = resolvePath(c.dump, baseDir);
    if (c.workload?.kubeconfig) c.workload.kubeconfig = resolvePath(c.workload.kubeconfig, baseDir);
    if (c.management?.kubeconfig) c.management.kubeconfig = resolvePath(c.management.kubeconfig, baseDir);
    if (c.etcd) {
      for (const k of ['caFile', 'certFile', 'keyFile'] as const) {
        const v = c.etcd[k];
        if (v) c.etcd[k] = resolvePath(v, baseDir);
      }
    }
  }
  const fleets = new Set<string>();
  for (const [i, f] of config.fleets.entries()) {
    if (fleets.has(f.name)) throw new ConfigError(`${source}: fleets[${i}].name: duplicate fleet name "${f.name}"`);
    fleets.add(f.name);
    if (new Set(f.namespaces).size !== f.namespaces.length)
      throw new ConfigError(`${source}: fleets[${i}].namespaces: a namespace is listed twice`);
    if (f.management.kubeconfig) f.management.kubeconfig = resolvePath(f.management.kubeconfig, baseDir);
  }
  return config as Config;
}

/** Read and validate a YAML config file. Relative paths in it are relative to the file. */
export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? describeError(err)}`,
      { cause: err },
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid YAML: ${describeError(err).split('\n')[0]}`, { cause: err });
  }
  return parseConfig(raw, path.dirname(path.resolve(file)), file);
}

function resolvePath(p: string, baseDir: string): string {
  if (p === '~' || p.startsWith('~/')) return path.join(homedir(), p.slice(1));
  return path.resolve(baseDir, p);
}

function formatPath(parts: readonly PropertyKey[]): string {
  let out = '';
  for (const p of parts) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}
