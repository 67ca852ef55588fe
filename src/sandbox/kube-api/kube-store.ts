import { KINDS } from '../../cluster/kinds.js';
import { ACCESS_KINDS, findServedKind, type ServedKind as KindSpec } from './served-kinds.js';
import type { KubeObject } from '../../cluster/snapshot.js';

/** One watch event as the API server streams it. */
export interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject;
  spec?: KindSpec;
  resourceVersion: number;
}

/**
 * The fake API server's object store: objects by kind, namespace and name, a global
 * resourceVersion counter, and which group/versions are served (derived from KINDS).
 * A kind is served when objects of it exist; non-optional (built-in) kinds are always served,
 * optional CRDs (CAPI, TKC) only with objects or `serveAllKinds`, so "CRD absent" stays testable.
 */
export class KubeStore {
  private readonly byKind = new Map<KindSpec, Map<string, KubeObject>>();
  private readonly served = new Map<KindSpec, string[]>();
  /** Sorted objects per kind, rebuilt after a change (a 100,000-pod list is paged 200 times). */
  private readonly sorted = new Map<KindSpec, KubeObject[]>();
  private rv = 1000;
  /** Every change, for watches that resume from a resourceVersion. */
  readonly log: StoreEvent[] = [];
  /** The kinds this store may serve: KINDS, plus ACCESS_KINDS with `accessKinds`. */
  readonly kinds: readonly KindSpec[];

  constructor(objects: KubeObject[], serveAllKinds = false, accessKinds = false) {
    this.kinds = accessKinds ? [...KINDS, ...ACCESS_KINDS] : KINDS;
    for (const obj of objects) {
      // events.k8s.io/v1 Events are served as core Events, as loadDump reads them.
      const spec = findServedKind(obj?.kind, obj?.apiVersion) ?? findServedKind(obj?.kind);
      // kinds the bot never reads are not served
      if (!spec || !this.kinds.includes(spec) || typeof obj.metadata?.name !== 'string') continue;
      const n = Number(obj.metadata.resourceVersion);
      if (Number.isInteger(n) && n > this.rv) this.rv = n;
      this.addServedVersion(spec, servedVersionOf(spec, obj));
      this.objectsOf(spec).set(keyOf(obj), structuredClone(obj));
    }
    for (const spec of this.kinds) {
      if (!this.served.has(spec) && (serveAllKinds || !spec.optional)) this.addServedVersion(spec, spec.versions[0]!);
    }
    // Objects read from a dump may lack resourceVersion: number them after the highest one seen.
    for (const objs of this.byKind.values()) {
      for (const obj of objs.values()) {
        obj.metadata.resourceVersion ??= String(++this.rv);
      }
    }
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  /** Versions served for a kind, preferred first; empty when its CRD is "not installed". */
  versionsOf(spec: KindSpec): string[] {
    return this.served.get(spec) ?? [];
  }

  /** The kind served at /api(s)/<group>/<version>/<plural>. */
  resolve(group: string, version: string, plural: string): KindSpec | undefined {
    return this.kinds.find((k) => k.group === group && k.plural === plural && this.versionsOf(k).includes(version));
  }

  /** Objects of a kind (all namespaces, or one), sorted by namespace/name like etcd keys. */
  list(spec: KindSpec, namespace?: string): KubeObject[] {
    let all = this.sorted.get(spec);
    if (!all) {
      all = [...this.objectsOf(spec).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
      this.sorted.set(spec, all);
    }
    return namespace === undefined ? [...all] : all.filter((o) => o.metadata.namespace === namespace);
  }

  get(spec: KindSpec, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objectsOf(spec).get(`${spec.namespaced ? (namespace ?? '') : ''}/${name}`);
  }

  /** Store (create or replace) an object with a new resourceVersion; returns the event. */
  put(spec: KindSpec, obj: KubeObject, type: 'ADDED' | 'MODIFIED' = 'MODIFIED'): StoreEvent {
    const copy = structuredClone(obj);
    copy.metadata.resourceVersion = String(++this.rv);
    this.addServedVersion(spec, servedVersionOf(spec, copy));
    const existed = this.objectsOf(spec).has(keyOf(copy));
    this.sorted.delete(spec);
    this.objectsOf(spec).set(keyOf(copy), copy);
    return this.record({ type: existed ? type : 'ADDED', object: copy, spec, resourceVersion: this.rv });
  }

  /** Create an object that must not exist yet (POST); undefined when it already exists (409 AlreadyExists). */
  create(spec: KindSpec, obj: KubeObject): StoreEvent | undefined {
    return this.objectsOf(spec).has(keyOf(obj)) ? undefined : this.put(spec, obj, 'ADDED');
  }

  /** Remove an object; returns the DELETED event (undefined when it did not exist). */
  remove(spec: KindSpec, namespace: string | undefined, name: string): StoreEvent | undefined {
    const key = `${spec.namespaced ? (namespace ?? '') : ''}/${name}`;
    const obj = this.objectsOf(spec).get(key);
    if (!obj) return undefined;
    this.objectsOf(spec).delete(key);
    this.sorted.delete(spec);
    const gone = structuredClone(obj);
    gone.metadata.resourceVersion = String(++this.rv);
    return this.record({ type: 'DELETED', object: gone, spec, resourceVersion: this.rv });
  }

  /** A BOOKMARK carrying only the current resourceVersion. */
  bookmark(): StoreEvent {
    return {
      type: 'BOOKMARK',
      object: { metadata: { name: '', resourceVersion: this.resourceVersion } },
      resourceVersion: this.rv,
    };
  }

  private record(ev: StoreEvent): StoreEvent {
    this.log.push(ev);
    return ev;
  }

  private objectsOf(spec: KindSpec): Map<string, KubeObject> {
    let m = this.byKind.get(spec);
    if (!m) this.byKind.set(spec, (m = new Map()));
    return m;
  }

  private addServedVersion(spec: KindSpec, version: string): void {
    const list = this.served.get(spec) ?? [];
    if (!list.includes(version)) list.push(version);
    // Preferred version first, in the order KINDS lists them.
    const rank = (v: string) => (spec.versions.indexOf(v) + spec.versions.length + 1) % (spec.versions.length + 1);
    list.sort((a, b) => rank(a) - rank(b));
    this.served.set(spec, list);
  }
}

/** The version an object is served at: its own, when its apiVersion is of the kind's group. */
function servedVersionOf(spec: KindSpec, obj: KubeObject): string {
  const group = obj.apiVersion?.includes('/') ? obj.apiVersion.split('/')[0] : '';
  return (obj.apiVersion && group === spec.group && versionOf(obj)) || spec.versions[0]!;
}

function versionOf(obj: KubeObject): string | undefined {
  if (typeof obj.apiVersion !== 'string' || !obj.apiVersion) return undefined;
  const parts = obj.apiVersion.split('/');
  return parts[parts.length - 1];
}

function keyOf(obj: KubeObject): string {
  const spec = findServedKind(obj.kind, obj.apiVersion) ?? findServedKind(obj.kind);
  return `${spec?.namespaced ? (obj.metadata.namespace ?? '') : ''}/${obj.metadata.name}`;
}
