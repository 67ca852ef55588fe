#!/usr/bin/env node
/**
 * `npm run build`, only when dist/ is older than its sources, so `npm run sandbox` (and the other
 * scripts that run the built CLI) start in seconds when nothing changed since the last build. The
 * build leaves dist/.build-stamp behind; the sources are src/ and the files that steer the compiler
 * (tsconfig*.json, package.json, package-lock.json). A build that fails leaves no stamp, so the next
 * run builds again.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

/** The newest modification time (ms) of a file or, for a directory, of anything under it. */
function newest(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), st.mtimeMs);
}

if (process.argv.includes('--stamp')) {
  // `npm run build` just built: only record it.
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}

const sources = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'].map((f) =>
  newest(path.join(root, f)),
);
const built = newest(stamp);
if (built > 0 && built >= Math.max(...sources) && process.env.K8S_HEALTH_FORCE_BUILD !== '1') process.exit(0);

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(path.dirname(stamp), { recursive: true });
writeFileSync(stamp, `${new Date().toISOString()}\n`);
