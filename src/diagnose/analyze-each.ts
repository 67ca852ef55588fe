import type { AnalysisContext, Analyzer, FindingDraft } from './analyzer.js';
import type { FindingId } from './finding.js';

/**
 * The common analyzer shape: at most one finding per thing a fact finder lists (a webhook, a held
 * volume, a control plane, a node, …). `items` lists the things once per analysis (work every item
 * shares goes there too); `draft` returns the finding for one item, or undefined when it is fine.
 */
export function analyzeEach<T>(
  id: FindingId,
  items: (ctx: AnalysisContext) => Iterable<T>,
  draft: (item: T, ctx: AnalysisContext) => FindingDraft | undefined,
): Analyzer {
  return {
    id,
    analyze(ctx) {
      const out: FindingDraft[] = [];
      for (const item of items(ctx)) {
        const d = draft(item, ctx);
        if (d) out.push(d);
      }
      return out;
    },
  };
}
