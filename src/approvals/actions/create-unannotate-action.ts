import {
  capiTarget,
  readCapiObject,
  readPinnedCapiObject,
  removeAnnotationCall,
  requireCapiObject,
  type CapiTarget,
} from './capi-object.js';
import { pinnedUid, sameObjectPrecondition } from './pin-object.js';
import type { RbacNeed, RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { CatalogActionId, PlanParams } from '../remediation-plan.js';
import { describeKubeCall, sendKube } from '../execute/send-kube.js';

/**
 * What distinguishes one "remove the annotation the bot set" action (the undos of the Cluster API annotation actions).
 */
export interface UnannotateActionSpec {
  id: CatalogActionId;
  /** Its undo, in words (RemediationAction.undoWords). */
  undoWords: string;
  kind: CapiTarget['kind'];
  annotation: string;
  label(t: CapiTarget): string;
  risk(t: CapiTarget): string;
  /** What removing it does, for the summary. */
  effect: string;
}

/** The exact value the bot's own write recorded (param `value`); anything else is refused. */
function valueOf(params: PlanParams): string {
  const v = String(params.value ?? '');
  if (!v || v.length > 256)
    throw new RemediateError(
      'E_REMEDIATE_PARAMS',
      'an undo needs the annotation value its write recorded (param value)',
    );
  return v;
}

/**
 * The undo of an annotate action (`machine.wait-for-drain`, `machine.wait-for-volume-detach`,
 * `mhc.resume-remediation`): remove the annotation only while it still holds exactly the value the
 * bot's write recorded (params `namespace`, `name`, `value`), on the same object (uid), with a
 * json-patch that `test`s both — someone else's annotation, or one changed since, is never removed.
 */
export function createUnannotateAction(spec: UnannotateActionSpec): RemediationAction {
  const rbac: RbacNeed[] = [
    {
      group: 'cluster.x-k8s.io',
      resource: spec.kind === 'Machine' ? 'machines' : 'machinehealthchecks',
      verbs: ['get', 'patch'],
    },
  ];
  return {
    id: spec.id,
    undoWords: spec.undoWords,
    rbac,
    async plan(cluster, params, live) {
      const t = capiTarget(spec.kind, params);
      const value = valueOf(params);
      const found = live ? await requireCapiObject(live, t) : undefined;
      const uid = found?.obj.metadata.uid;
      const path =
        found?.path ?? `/apis/cluster.x-k8s.io/<served version>/namespaces/${t.namespace}/${t.plural}/${t.name}`;
      return {
        action: spec.id,
        cluster,
        params: { namespace: t.namespace, name: t.name, value },
        label: spec.label(t),
        apiCalls: [
          `${describeKubeCall({ method: 'PATCH', path })} (json-patch: test metadata.uid ${uid ?? '<recorded at proposal>'} and ${spec.annotation}="${value}", then remove it)`,
        ],
        preconditions: [
          sameObjectPrecondition(t.what, uid),
          {
            id: 'annotation-ours',
            text: `${t.what} still carries ${spec.annotation} with the value the bot wrote`,
            recorded: value,
          },
        ],
        risk: spec.risk(t),
      };
    },
    async dryRun(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const { path } = await requireCapiObject(ctx, t);
      const uid = pinnedUid(plan, t.what);
      await sendKube(ctx.management, {
        ...removeAnnotationCall(path, uid, spec.annotation, valueOf(plan.params)),
        query: { dryRun: 'All' },
      });
      return `server-side dry run (dryRun=All) accepted: PATCH ${path} (remove ${spec.annotation}, pinned to uid ${uid} and its value)`;
    },
    async checkPreconditions(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const found = await readPinnedCapiObject(ctx, t, pinnedUid(plan, t.what));
      if (found.problem !== undefined) return [found.problem];
      const now = found.obj.metadata.annotations?.[spec.annotation];
      const want = valueOf(plan.params);
      if (now === undefined) return [`${t.what} no longer carries ${spec.annotation}`];
      return now === want
        ? []
        : [
            `${t.what} carries ${spec.annotation}="${now}", not the value the bot wrote ("${want}"): it is someone else's and is left alone`,
          ];
    },
    async execute(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const uid = pinnedUid(plan, t.what);
      const { path } = await requireCapiObject(ctx, t);
      await sendKube(ctx.management, removeAnnotationCall(path, uid, spec.annotation, valueOf(plan.params)));
      return { summary: `${spec.annotation} removed from ${t.what}: ${spec.effect}` };
    },
    async verify(plan, ctx) {
      const t = capiTarget(spec.kind, plan.params);
      const found = await readCapiObject(ctx, t);
      if (!found) return [`${t.what} no longer exists`];
      return spec.annotation in (found.obj.metadata.annotations ?? {})
        ? [`${t.what} still carries ${spec.annotation}`]
        : [];
    },
  };
}
