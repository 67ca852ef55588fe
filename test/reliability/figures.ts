import { appendFileSync } from 'node:fs';

/**
 * Counts of the reliability suite scale with K8S_HEALTH_SOAK (1 in `npm test`, 10 under `npm run soak`).
 * Each test records what it tried and how many got through; scripts/soak.js prints them as a table.
 */
export const SOAK = Math.max(1, Math.floor(Number(process.env.K8S_HEALTH_SOAK ?? '1')) || 1);

/** `n` scaled by the soak factor. */
export function scaled(n: number): number {
  return n * SOAK;
}

/** One line of figures: what was tried, and how many of them were wrongly accepted / crashed / lost. */
export interface Figure {
  suite: string;
  case: string;
  tried: number;
  /** Should be 0: accepted forgeries, crashes, lost or duplicated work, leaked secrets. */
  bad: number;
  note?: string;
}

/** Append a figure to $K8S_HEALTH_FIGURES (JSON lines) when set; always returns it for assertions. */
export function recordFigure(f: Figure): Figure {
  const file = process.env.K8S_HEALTH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(f)}\n`);
  return f;
}

export { FUZZ_SEED } from '../support/fuzz-seed.js';
