import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `k8s-health --help` and `check --from` start fast, so they must not load Bolt, BullMQ, ioredis, client-node
 * or etcd3. Follows the static (non-type) imports of the source from an entry file and lists the
 * packages it reaches; dynamic `import()` is where a command's heavy dependencies belong.
 */
const HEAVY = [
  '@slack/bolt',
  '@slack/web-api',
  'bullmq',
  'ioredis',
  '@kubernetes/client-node',
  'etcd3',
  'prom-client',
  'pino',
  'pino-pretty',
];

function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    // `import x from '…'`, `import { a } from '…'`, `export … from '…'`, `import '…'` — not `import type`.
    const re = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
    for (const m of src.matchAll(re)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
        if (existsSync(target)) visit(target);
      } else if (!spec.startsWith('node:')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  };
  visit(path.resolve(entry));
  return packages;
}

describe('CLI start-up imports', () => {
  it.each(['src/cli/run-cli.ts', 'src/cli/run-check.ts'])(
    '%s reaches none of the heavy packages statically',
    (entry) => {
      const reached = [...staticPackages(entry)].filter((p) => HEAVY.includes(p));
      expect(reached).toEqual([]);
    },
  );

  it('check --from without a config file loads no config schema: zod is reached only through the dynamic import of resolve-config', () => {
    expect(staticPackages('src/cli/run-check.ts').has('zod')).toBe(false);
    expect(staticPackages('src/cli/resolve-config.ts').has('zod')).toBe(true);
  });

  it('the walk does find heavy packages where they are imported (the check can fail)', () => {
    expect([...staticPackages('src/cli/run-serve.ts')].some((p) => HEAVY.includes(p))).toBe(true);
  });
});
