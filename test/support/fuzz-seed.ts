import fc from 'fast-check';

/**
 * The seed of every fast-check run in the tests: fixed in `npm test`, so CI is repeatable; fresh
 * each run under `npm run soak` (K8S_HEALTH_SOAK > 1) or FUZZ_SEED=random, to keep exploring.
 * FUZZ_SEED=<n> replays a run; the fuzz suites put the seed in their names.
 */
const soak = Number(process.env.K8S_HEALTH_SOAK ?? '1') > 1;
export const FUZZ_SEED: number =
  process.env.FUZZ_SEED === 'random' || (process.env.FUZZ_SEED === undefined && soak)
    ? (Date.now() ^ (process.pid << 8)) >>> 0
    : Number(process.env.FUZZ_SEED ?? 20261122) >>> 0;

/** Make every fc.assert / fc.sample of the calling test file use FUZZ_SEED. */
export function useFuzzSeed(): number {
  fc.configureGlobal({ seed: FUZZ_SEED });
  return FUZZ_SEED;
}
