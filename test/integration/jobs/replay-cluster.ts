import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

export const REPLAY_DIR = path.resolve('examples/scenarios/replay-s3-recreation-loop');

/**
 * A `dump:` cluster that changes over time: `link` is a symlink re-pointed (atomically, by rename)
 * to another dump directory between scans (docs/design.md: dump clusters are re-read on every scan).
 */
export interface ReplayCluster {
  /** The path to put in the config's `dump:`. */
  link: string;
  root: string;
  show(dir: string): void;
  /** A copy of `from` with meta.json collectedAt set to `at`, and the machines `dropMachines` removed. */
  derive(from: string, at: string, opts?: { dropMachines?: string[]; machinesFile?: string }): string;
  cleanup(): void;
}

export function createReplayCluster(): ReplayCluster {
  const root = mkdtempSync(path.join(tmpdir(), 'k8s-health-replay-'));
  const link = path.join(root, 'current');
  let n = 0;
  return {
    link,
    root,
    show(dir) {
      const tmp = path.join(root, `next-${++n}`);
      symlinkSync(dir, tmp);
      renameSync(tmp, link);
    },
    derive(from, at, opts = {}) {
      const dir = path.join(root, `dump-${++n}`);
      cpSync(from, dir, { recursive: true });
      const metaFile = path.join(dir, 'meta.json');
      const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
      writeFileSync(metaFile, JSON.stringify({ ...meta, collectedAt: at }));
      if (opts.dropMachines?.length) {
        const file = path.join(dir, opts.machinesFile ?? 'management/machines.yaml');
        const list = parse(readFileSync(file, 'utf8')) as { items: { metadata: { name: string } }[] };
        list.items = list.items.filter((m) => !opts.dropMachines!.includes(m.metadata.name));
        writeFileSync(file, stringify(list));
      }
      return dir;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A random BullMQ prefix per test (queues and keys never collide across tests or runs). */
export function randomPrefix(): string {
  return `k8s-health-test-${Math.random().toString(36).slice(2, 10)}`;
}
