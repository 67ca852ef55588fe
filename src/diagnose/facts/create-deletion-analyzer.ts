import type { AnalysisContext, Analyzer, FindingDraft } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { describeStageAge, type DeletionBlocker, type DeletionBlockerId } from './find-deletion-blocker.js';
import { findStuckDeletions } from './find-stuck-deletions.js';

/** What one stuck-deletion finding says of its Machine, besides the parts all of them share. */
export interface DeletionFindingWords {
  /** The title after the Machine's name, before the stage's age: "cannot be deleted: drain of node w1 …". */
  says: string;
  evidence: string[];
  cause: string;
  /** Kept only when not empty. */
  steps?: string[];
  remediations: RemediationProposal[];
  /** The ids after `machine`. */
  ids: Record<string, string>;
  /** Kept only when not empty. */
  causedBy?: string[];
}

/**
 * The analyzer of one kind of stuck Machine deletion (capi.drain-blocked, capi.deletion-hook-pending,
 * capi.volume-detach-pending): one finding per Machine whose deletion has waited in that stage
 * for `deletingMinutes` (findStuckDeletions) — a warning in the machines section about the Machine,
 * titled with its name and how long the stage has waited, the stage's start as `since`, what could not
 * be read as `missing` — in the words `words` gives for its blocker.
 */
export function createDeletionAnalyzer(
  id: DeletionBlockerId,
  words: (b: DeletionBlocker, ctx: AnalysisContext) => DeletionFindingWords,
): Analyzer {
  return {
    id,
    analyze(ctx): FindingDraft[] {
      return findStuckDeletions(ctx, id).map((b) => {
        const { info } = b;
        const w = words(b, ctx);
        const draft: FindingDraft = {
          id,
          severity: 'warning',
          section: 'machines',
          title: `${info.controlPlane ? 'Control-plane machine' : 'Machine'} ${info.namespace}/${info.name} ${w.says} (${describeStageAge(b)})`,
          subject: { kind: 'Machine', namespace: info.namespace, name: info.name },
          evidence: w.evidence,
          cause: w.cause,
          ...(w.steps?.length ? { steps: w.steps } : {}),
          remediations: w.remediations,
          ids: { machine: `${info.namespace}/${info.name}`, ...w.ids },
        };
        if (b.since) draft.since = b.since;
        if (b.missing.length) draft.missing = b.missing;
        if (w.causedBy?.length) draft.causedBy = w.causedBy;
        return draft;
      });
    },
  };
}
