import type { AnalysisContext } from '../analyzer.js';
import { findDeletionBlocker, type DeletionBlocker, type DeletionBlockerId } from './find-deletion-blocker.js';

/**
 * Every Machine whose deletion has waited in one stage (a hook, the drain, the volume detach) for at
 * least `thresholds.deletingMinutes`, with what holds it. The same threshold as
 * capi.machine-stuck-deleting, measured from the stage's own start when Cluster API records it, so a
 * drain that started two minutes ago after a long hook is not called blocked yet (a short
 * drain and a hook that clears in time stay quiet). `id` keeps one kind of blocker.
 */
export function findStuckDeletions(ctx: AnalysisContext, id?: DeletionBlockerId): DeletionBlocker[] {
  const out: DeletionBlocker[] = [];
  for (const m of ctx.snapshot.capi.machines) {
    const b = findDeletionBlocker(ctx.snapshot, m, ctx.now);
    if (!b || (id && b.id !== id)) continue;
    if (b.minutes === undefined || b.minutes < ctx.thresholds.deletingMinutes) continue;
    out.push(b);
  }
  return out;
}
