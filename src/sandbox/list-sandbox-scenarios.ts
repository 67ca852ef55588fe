import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One scenario the sandbox page can play. */
export interface SandboxScenario {
  /** Picker id, and the name of the sandbox's cluster ([a-z0-9-]+). */
  name: string;
  /** One line for the picker. */
  title: string;
  /** Dump directories, played in order by "next scan" (one for a still scenario). */
  steps: string[];
  /** Capture time of each step (meta.json collectedAt); the sandbox clock starts at the first. */
  collectedAt: Array<string | undefined>;
  /**
   * Served by the sandbox's simulated Kubernetes API server with remediation enabled, so approved
   * fixes really run against it; the others are read-only `dump:` clusters, as in production.
   */
  live: boolean;
}

/** The scenario of the live cluster: the one whose root cause has fixes that run on Kubernetes objects. */
export const LIVE_SCENARIO = { name: 'prod-east', from: 's3-recreation-loop-webhook-down' } as const;

/**
 * Every bundled scenario (examples/scenarios/*), titled from that folder's README table, plus the live
 * incident first. A folder without meta.json whose subfolders have one is a replay: its subfolders,
 * in name order, are its steps (replay-s3-recreation-loop: t00 t12 t24 t36).
 */
export function listSandboxScenarios(scenariosDir: string): SandboxScenario[] {
  const titles = readTitles(path.join(scenariosDir, 'README.md'));
  const dirs = readdirSync(scenariosDir)
    .filter((d) => statSync(path.join(scenariosDir, d)).isDirectory() && /^[a-z0-9-]+$/.test(d))
    .sort();
  const out: SandboxScenario[] = [];
  for (const d of dirs) {
    const dir = path.join(scenariosDir, d);
    const replay = existsSync(path.join(dir, 'meta.json'))
      ? []
      : readdirSync(dir)
          .filter((t) => existsSync(path.join(dir, t, 'meta.json')))
          .sort()
          .map((t) => path.join(dir, t));
    const steps = replay.length ? replay : [dir];
    out.push({ name: d, title: titles.get(d) ?? d, steps, collectedAt: steps.map(readCollectedAt), live: false });
  }
  const live = out.find((s) => s.name === LIVE_SCENARIO.from);
  if (live) {
    out.unshift({
      ...live,
      name: LIVE_SCENARIO.name,
      title: `Live cluster: ${live.title} — served by a simulated Kubernetes API server, so approved fixes really run`,
      live: true,
    });
  }
  return out;
}

/** The "what it shows" column of the README table, by scenario name. */
function readTitles(readme: string): Map<string, string> {
  const titles = new Map<string, string>();
  if (!existsSync(readme)) return titles;
  for (const line of readFileSync(readme, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | name | what it shows | seed |
    if (cells.length >= 4 && /^[a-z0-9-]+$/.test(cells[1] ?? ''))
      titles.set(cells[1]!, (cells[2] ?? '').replace(/`/g, ''));
  }
  return titles;
}

function readCollectedAt(dir: string): string | undefined {
  try {
    const meta = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { collectedAt?: unknown };
    return typeof meta.collectedAt === 'string' && Number.isFinite(Date.parse(meta.collectedAt))
      ? meta.collectedAt
      : undefined;
  } catch {
    return undefined; // no meta.json: the capture time comes from the data (load-dump.ts)
  }
}
