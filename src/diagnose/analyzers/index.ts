import type { Analyzer } from '../analyzer.js';

/**
 * The explicit registry of analyzers (STYLE.md: no import-time self-registration).
 * One analyzer per finding id, one file each, named after the id (dots → dashes).
 */
export const ANALYZERS: readonly Analyzer[] = [];
