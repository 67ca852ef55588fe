/** One PodDisruptionBudget a drain's evictions were refused by, as Cluster API quotes the eviction API. */
export interface DrainBudgetRefusal {
  /** The budget's name ("The disruption budget <name> needs …"). */
  budget: string;
  /** "needs N healthy pods and has M currently", when quoted. */
  needs?: number;
  has?: number;
  /** Pods named (namespace/name as Cluster API prints them; the list may end with "... (N more)"). */
  pods: string[];
  /** Pods Cluster API did not list ("... (7 more)"). */
  morePods: number;
}

/** What a Machine's drain condition says is left on the Node. */
export interface DrainMessage {
  refusals: DrainBudgetRefusal[];
  /** Pods evicted but still on the Node ("deletionTimestamp set, but still not removed from the Node"). */
  terminating: string[];
  /** Other eviction failures: the error text and its pods. */
  evictionErrors: { error: string; pods: string[] }[];
  /** Pods the drain waits to complete (cluster.x-k8s.io/drain=wait-completed, MachineDrainRule WaitCompleted). */
  waitCompleted: string[];
}

const BUDGET = /disruption budget (\S+) needs (\d+) healthy pods? and has (\d+) currently/i;
const BUDGET_NAME_ONLY = /disruption budget (\S+)/i;
const PDB_REFUSAL = /cannot evict pod as it would violate the pod's disruption budget/i;
const LIST_ITEM = /^\*\s+Pods?\s+(.+?):\s+(.*)$/;
const MORE = /\.\.\.\s*\((\d+) more\)/;

/**
 * Read the drain progress Cluster API writes on a Machine being deleted: the v1beta2 `Deleting`
 * condition (reason `DrainingNode`) or v1beta1 `DrainingSucceeded` (reason `Draining`) message.
 * Two formats are understood, both from kubernetes-sigs/cluster-api:
 * - v1.9+ (`drain.EvictionResult.ConditionMessage`): one line per cause,
 *   `* Pod ns/a: cannot evict pod as it would violate the pod's disruption budget. The disruption budget
 *   x needs 2 healthy pods and has 2 currently`, `* Pods ns/b, ns/c: deletionTimestamp set, but still not
 *   removed from the Node`, `* Pod ns/d: failed to evict Pod, <error>`, `* Pod ns/e: waiting for completion`;
 * - v1.8 (the book's "Node drain" example): `* Pods with deletionTimestamp that still exist: ns/a` and
 *   `* Pods with eviction failed:` followed by `  * Cannot evict pod … The disruption budget x needs 10
 *   healthy pods and has 10 currently: ns/b, ns/c, ... (7 more)`.
 * Anything else is ignored (the message is quoted whole as evidence anyway). Pure; never throws.
 */
export function parseDrainMessage(message: string | undefined): DrainMessage {
  const out: DrainMessage = { refusals: [], terminating: [], evictionErrors: [], waitCompleted: [] };
  if (typeof message !== 'string') return out;
  for (const raw of message.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('*')) continue;
    const item = LIST_ITEM.exec(line);
    // v1.8: "* Pods with deletionTimestamp that still exist: a, b"
    const oldTerminating = /^\*\s+Pods with deletionTimestamp that still exist:\s*(.*)$/i.exec(line);
    if (oldTerminating) {
      out.terminating.push(...splitPods(oldTerminating[1]).pods);
      continue;
    }
    if (PDB_REFUSAL.test(line)) {
      // v1.9+: the pods come before the reason; v1.8: after "… currently: ".
      const tail =
        item && !/^with eviction failed/i.test(item[1]!) && PDB_REFUSAL.test(item[2]!)
          ? item[1]!
          : (/currently:\s*(.*)$/i.exec(line)?.[1] ?? '');
      const b = BUDGET.exec(line);
      const name = b?.[1] ?? BUDGET_NAME_ONLY.exec(line)?.[1];
      const { pods, more } = splitPods(tail);
      out.refusals.push({
        budget: (name ?? '<unnamed>').replace(/[.,:]$/, ''),
        ...(b ? { needs: Number(b[2]), has: Number(b[3]) } : {}),
        pods,
        morePods: more,
      });
      continue;
    }
    if (!item) continue;
    const [, podList, reason] = item as unknown as [string, string, string];
    if (/^with /i.test(podList)) continue; // v1.8 headings ("Pods with eviction failed:")
    const { pods } = splitPods(podList);
    if (/deletionTimestamp set, but still not removed from the Node/i.test(reason)) out.terminating.push(...pods);
    else if (/^waiting for completion/i.test(reason)) out.waitCompleted.push(...pods);
    else if (/^failed to evict Pod, /i.test(reason))
      out.evictionErrors.push({ error: reason.replace(/^failed to evict Pod, /i, ''), pods });
  }
  return out;
}

/** "ns/a, ns/b, ... (7 more)" → pods and the count left out. */
function splitPods(list: string | undefined): { pods: string[]; more: number } {
  if (!list) return { pods: [], more: 0 };
  const more = Number(MORE.exec(list)?.[1] ?? 0);
  const pods = list
    .replace(MORE, '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p && p !== '...');
  return { pods, more };
}
