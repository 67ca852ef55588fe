import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The corpus of real captures: test/fixtures/real/<case>/{dump/, expected.json, README.md}. */
export const REAL_DIR = path.resolve('test/fixtures/real');

export interface ActionMatch {
  action: string;
  params?: Record<string, unknown>;
}

/** Behaviour a real capture must show: ids present/absent, worst severity, fixes proposed or never proposed. */
export interface RealExpected {
  description: string;
  /** Defect classes (1–12) this case is the regression for; [] for a plain healthy capture. */
  defects: number[];
  /** Dump directories under the case, replayed in order as successive scans (default ["dump"]). */
  scans?: string[];
  /** Analysis time (default: the dump's collectedAt). */
  now?: string;
  /** Worst severity allowed and reached: "none" means no finding at all. */
  maxSeverity: 'critical' | 'warning' | 'info' | 'none';
  /** Overall report status, when it matters (e.g. "unknown" rather than "healthy"). */
  status?: 'healthy' | 'degraded' | 'critical' | 'unknown';
  /** Section statuses that must hold, e.g. { "etcd": "critical", "webhooks": "unknown" }. */
  sections?: Record<string, string>;
  present?: string[];
  absent?: string[];
  proposes?: ActionMatch[];
  mustNotPropose?: ActionMatch[];
  /** Finding id → substrings its `missing` lines must contain. */
  missing?: Record<string, string[]>;
  /** Substrings the JSON report must contain (exact uint64 ids, say). */
  jsonContains?: string[];
  /** Substrings the text report must contain. */
  textContains?: string[];
  /** Substrings the text report must not contain ("0 of 3 Ready"). */
  textLacks?: string[];
}

export interface RealCase {
  name: string;
  dir: string;
  scans: string[];
  readme: string;
  expected: RealExpected;
}

export function listRealCases(): RealCase[] {
  if (!existsSync(REAL_DIR)) return [];
  return readdirSync(REAL_DIR)
    .filter((d) => statSync(path.join(REAL_DIR, d)).isDirectory())
    .sort()
    .map((name) => {
      const dir = path.join(REAL_DIR, name);
      const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as RealExpected;
      const scans = (expected.scans ?? ['dump']).map((s) => path.join(dir, s));
      const readme = existsSync(path.join(dir, 'README.md')) ? readFileSync(path.join(dir, 'README.md'), 'utf8') : '';
      return { name, dir, scans, readme, expected };
    });
}
