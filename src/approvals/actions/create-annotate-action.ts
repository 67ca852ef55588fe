import type { KubeObject } from '../../cluster/snapshot.js';
import { botAnnotationValue, BOT_MARK } from '../../diagnose/facts/read-paused.js';
import { CLUSTERS_READ } from './check-target-cluster.js';
import {
  addAnnotationCall,
  capiTarget,
  readCapiObject,
  readPinnedCapiObject,
  requireCapiObject,
  type CapiTarget,
} from './capi-object.js';
import { pinnedUid, replacedMessage, sameObjectPrecondition } from './pin-object.js';
import type { RbacNeed, RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { CatalogActionId, Precondition } from '../remediation-plan.js';
import { describeKubeCall, sendKube } from '../execute/send-kube.js';

/** What distinguishes one "set a Cluster API annotation" action. */
export interface AnnotateActionSpec {
  id: CatalogActionId;
  /** Its undo, in words (RemediationAction.undoWords). */
  undoWords: string;
  kind: CapiTarget['kind'];
  annotation: string;
  label(t: CapiTarget): string;
  risk(t: CapiTarget): string;
  /** What must hold besides "same object, annotation not set yet" (re-checked live, recorded values included). */
  preconditions(t: CapiTarget, obj: KubeObject | undefined): Precondition[];
  /** The live problems with those preconditions (empty: they hold). */
  problems(t: CapiTarget, obj: KubeObject, recorded: Precondition[]): string[];
  /** The undo proposal's words (the undo action removes exactly the value written). */
  undo: { action: CatalogActionId; label(t: CapiTarget): string; risk(t: CapiTarget): string };
  /** What it does, for the summary: "Cluster API skips the drain of its node". */
  effect: string;
}

/**
 * A catalog action that sets one annotation on a Cluster API object of the management cluster
 * (`machine.skip-drain`, `machine.skip-volume-detach`, `mhc.pause-remediation`). Plan: read the object,
 * record its uid and the facts it relies on; dry run: the same pinned json-patch with dryRun=All;
 * execute once: re-read, refuse a replaced object or an annotation already set, then patch pinned to the
 * uid and the resourceVersion just read; verify: the annotation carries the bot's value. The value is
 * `k8s-health-bot <time> request <id>` (Cluster API reads presence only), and the undo it proposes
 * removes exactly that value — never an annotation someone else set.
 */
export function createAnnotateAction(spec: AnnotateActionSpec): RemediationAction {
  const rbac: RbacNeed[] = [
    {
      group: 'cluster.x-k8s.io',
      resource: spec.kind === 'Machine' ? 'machines' : 'machinehealthchecks',
      verbs: ['get', 'patch'],
    },
    CLUSTERS_READ,
  ];
  const notSet = (t: CapiTarget): Precondition => ({
    id: 'not-annotated',
    text: `${t.what} does not carry ${spec.annotation} yet`,
  });
  return {
    id: spec.id,
    undoWords: spec.undoWords,
    rbac,
    async plan(cluster, params, live) {
      const t = capiTarget(spec.kind, params);
      const found = live ? await requireCapiObject(live, t) : undefined;
      const uid = found?.obj.metadata.uid;
      if (found && spec.annotation in (found.obj.metadata.annotations ?? {})) {
        throw new RemediateError(
          'E_REMEDIATE_NO_TARGET',
          `${t.what} already carries ${spec.annotation}: nothing to do`,
        );
      }
      // A plan that could never pass its live re-check is not proposed at all.
      const problems = found ? spec.problems(t, found.obj, []) : [];
      if (problems.length) throw new RemediateError('E_REMEDIATE_NO_TARGET', problems.join('; '));
      const path =
        found?.path ?? `/apis/cluster.x-k8s.io/<served version>/namespaces/${t.namespace}/${t.plural}/${t.name}`;
      return {
        action: spec.id,
        cluster,
        params: { namespace: t.namespace, name: t.name },
        label: spec.label(t),
        apiCalls: [
          `${describeKubeCall({ method: 'PATCH', path })} (json-patch: test metadata.uid ${uid ?? '<recorded at proposal>'} and the resourceVersion read right before, then add annotation ${spec.annotation}="${BOT_MARK} <time> request <request id>")`,
        ],
        preconditions: [sameObjectPrecondition(t.what, uid), notSet(t), ...spec.preconditions(t, found?.obj)],
        risk: spec.risk(t),
      };
    },
    async dryRun(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const { obj, path } = await requireCapiObject(ctx, t);
      const uid = pinnedUid(plan, t.what);
      await sendKube(ctx.management, {
        ...addAnnotationCall(path, obj, uid, spec.annotation, botAnnotationValue(new Date(), 'dry-run')),
        query: { dryRun: 'All' },
      });
      return `server-side dry run (dryRun=All) accepted: PATCH ${path} (add ${spec.annotation}, pinned to uid ${uid})`;
    },
    async checkPreconditions(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const found = await readPinnedCapiObject(ctx, t, pinnedUid(plan, t.what));
      if (found.problem !== undefined) return [found.problem];
      const problems =
        spec.annotation in (found.obj.metadata.annotations ?? {})
          ? [`${t.what} already carries ${spec.annotation}`]
          : [];
      return [...problems, ...spec.problems(t, found.obj, plan.preconditions)];
    },
    async execute(plan, ctx, io) {
      const t = capiTarget(spec.kind, plan.params);
      const uid = pinnedUid(plan, t.what);
      const { obj, path } = await requireCapiObject(ctx, t);
      if (obj.metadata.uid !== uid)
        throw new RemediateError(
          'E_REMEDIATE_NO_TARGET',
          `${replacedMessage(t.what, uid, obj.metadata.uid)}; nothing was changed`,
        );
      const value = botAnnotationValue(new Date(), io.requestId);
      // Pinned to the version just read: the preconditions were checked against it.
      await sendKube(ctx.management, addAnnotationCall(path, obj, uid, spec.annotation, value));
      return {
        summary: `${t.what} annotated ${spec.annotation}="${value}": ${spec.effect}`,
        undo: {
          action: spec.undo.action,
          params: { namespace: t.namespace, name: t.name, value },
          label: spec.undo.label(t),
          risk: spec.undo.risk(t),
        },
      };
    },
    async verify(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const found = await readCapiObject(ctx, t);
      // A Machine whose deletion went through once the wait was skipped is gone: that is the goal reached.
      if (!found) return spec.kind === 'Machine' ? [] : [`${t.what} no longer exists`];
      const v = found.obj.metadata.annotations?.[spec.annotation];
      return v?.startsWith(`${BOT_MARK} `) ? [] : [`${t.what} does not carry ${spec.annotation} set by k8s-health-bot`];
    },
  };
}
