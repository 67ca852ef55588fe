import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const SCENARIOS_DIR = path.resolve('examples/scenarios');

export interface ExpectedFinding {
  id: string;
  severity: string;
  subject: { kind: string; namespace?: string; name: string };
}

export interface Scenario {
  name: string;
  dir: string;
  /** Dump directories to replay in order (one for a plain scenario). */
  scans: string[];
  expected: {
    seed: string | null;
    description: string;
    findings: ExpectedFinding[];
    mustNotPropose?: { action: string; params?: Record<string, unknown> }[];
  };
}

/** Every scenario folder with an expected.json: a dump (meta.json) or a replay series of dumps. */
export function listScenarios(): Scenario[] {
  return readdirSync(SCENARIOS_DIR)
    .filter(
      (d) =>
        statSync(path.join(SCENARIOS_DIR, d)).isDirectory() && existsSync(path.join(SCENARIOS_DIR, d, 'expected.json')),
    )
    .sort()
    .map((name) => {
      const dir = path.join(SCENARIOS_DIR, name);
      const scans = existsSync(path.join(dir, 'meta.json'))
        ? [dir]
        : readdirSync(dir)
            .filter((t) => existsSync(path.join(dir, t, 'meta.json')))
            .sort()
            .map((t) => path.join(dir, t));
      return { name, dir, scans, expected: JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) };
    });
}
