import type { AnalysisContext } from '../analyzer.js';
import { findLoopStop } from './find-loop-stop.js';
import { findRecreationLoops, type RecreationLoop } from './find-recreation-loops.js';

/**
 * The recreation loops capi.recreation-loop reports: at least `loopReplacements` replacements of one
 * owner in the loop window (a replacement already failing the same way counts as the next one, but
 * only on top of real ones), and not stopped (findLoopStop, defect class 12). Shared by the loop
 * analyzer and the analyzers whose cause a loop can be (a rollout that cannot finish while its new
 * machines are recreated). Worked out once per analysis: both ask for the same context.
 */
export function findActiveRecreationLoops(ctx: AnalysisContext): RecreationLoop[] {
  const known = perAnalysis.get(ctx);
  if (known) return known;
  const { snapshot, now, thresholds, history } = ctx;
  const loops = findRecreationLoops(snapshot, history, { windowMinutes: thresholds.loopWindowMinutes, now }).filter(
    (loop) => {
      const counted = loop.replacements + (loop.underway && loop.replacements > 0 ? 1 : 0);
      return counted >= thresholds.loopReplacements && !findLoopStop(snapshot, loop, now);
    },
  );
  perAnalysis.set(ctx, loops);
  return loops;
}

/** One answer per analysis context (the engine builds one per analysis; the analyzers only read it). */
const perAnalysis = new WeakMap<AnalysisContext, RecreationLoop[]>();
