import type { KubeObject } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';

/** Cluster API's pause annotation: any object carrying it is not reconciled (api/core/v1beta2/common_types.go). */
export const PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';
/** Machines with this annotation are skipped by the MachineHealthCheck (never marked for remediation). */
export const SKIP_REMEDIATION_ANNOTATION = 'cluster.x-k8s.io/skip-remediation';

/**
 * The value k8s-health-bot writes into the annotations it sets (`cluster.x-k8s.io/paused`, the Machine
 * exclude annotations): `k8s-health-bot <ISO time> request <approval request id>`. Cluster API reads only
 * the annotations' presence; the value tells who set it and when, and an undo removes only an annotation
 * that still carries exactly the value its own write recorded.
 */
export const BOT_MARK = 'k8s-health-bot';

/** The annotation value of one write by the bot. */
export function botAnnotationValue(at: Date, requestId: string): string {
  return `${BOT_MARK} ${at.toISOString()} request ${requestId}`;
}

/** Whether an object is paused, how, and since when. */
export interface PausedState {
  paused: boolean;
  /** "annotation cluster.x-k8s.io/paused" and/or "spec.paused: true". */
  how: string[];
  /** The annotation's value, when it has one (k8s-health-bot writes who and when). */
  annotationValue?: string;
  /**
   * Since when: the `Paused` condition's lastTransitionTime (v1beta2, set by CAPI v1.9+ on every object
   * it pauses), else a time in the annotation's value; undefined when neither says.
   */
  since?: string;
}

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/;

/**
 * Is a Cluster API object paused: the `cluster.x-k8s.io/paused` annotation (honoured on every CAPI
 * object) or `spec.paused: true` (Cluster, MachineDeployment). Pure.
 */
export function readPaused(o: KubeObject): PausedState {
  const how: string[] = [];
  const value = o.metadata.annotations?.[PAUSED_ANNOTATION];
  if (value !== undefined) how.push(`annotation ${PAUSED_ANNOTATION}${value ? `="${value}"` : ''}`);
  if (o.spec?.paused === true) how.push('spec.paused: true');
  const out: PausedState = { paused: how.length > 0, how };
  if (value) out.annotationValue = value;
  if (!out.paused) return out;
  const cond = findCondition(o, 'Paused');
  const since = cond?.status === 'True' ? cond.lastTransitionTime : undefined;
  const fromValue = value ? ISO.exec(value)?.[0] : undefined;
  if (since ?? fromValue) out.since = since ?? fromValue;
  return out;
}
