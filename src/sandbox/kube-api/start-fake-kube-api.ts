import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findServedKind, type ServedKind as KindSpec } from './served-kinds.js';
import { createAccessControl } from './create-access-control.js';
import { answerSelfReview } from './answer-self-review.js';
import { refuseForeignRequest } from '../refuse-foreign-request.js';
import { readDumpObjects } from '../../cluster/dump/read-dump-objects.js';
import type { KubeObject } from '../../cluster/snapshot.js';
import { applyPatch, PatchError } from './apply-patch.js';
import { createDiscovery } from './create-discovery.js';
import { createObjectFilter, SelectorError } from './create-object-filter.js';
import { createKubeStatus, forbiddenMessage } from './kube-status.js';
import { KubeStore, type StoreEvent } from './kube-store.js';
import { renderReadyz, type ReadyzMode } from './render-readyz.js';
import { K8sHealthError } from '../../errors/k8s-health-error.js';

export interface FakeKubeApiOptions {
  objects?: KubeObject[];
  /** A dump directory, read with readDumpObjects (objects are added to `objects`). */
  dir?: string;
  /**
   * Which half of a workload/ + management/ dump to serve (default workload; an unsplit dump serves the same objects
   * for both).
   */
  cluster?: 'workload' | 'management';
  /** Serve every KINDS entry even without objects (default: optional CRDs only when they have objects). */
  serveAllKinds?: boolean;
  /** Initial /readyz behaviour (default healthy, or the dump's recorded apiserver state). */
  readyz?: ReadyzMode;
  /**
   * Also serve the access kinds `k8s-health enroll` creates (ServiceAccount, Secret, ClusterRole,
   * ClusterRoleBinding; served-kinds.ts), act as the token controller for service-account-token
   * Secrets, and authorize requests carrying such a token by the ClusterRoles bound to its
   * ServiceAccount (403 otherwise). Any other token stays an unrestricted admin, as before.
   */
  accessKinds?: boolean;
  /**
   * With accessKinds: SelfSubjectRulesReview answers `incomplete` with only the default rules, as
   * behind a webhook authorizer; SelfSubjectAccessReview still answers from every rule.
   */
  rulesReviewIncomplete?: boolean;
}

/** One request as the fake saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** `system:serviceaccount:NS:NAME` when the request carried a ServiceAccount token this fake issued (accessKinds). */
  user?: string;
}

/**
 * A POST (create), PATCH or DELETE the fake received (dry runs included, flagged, never applied), with
 * its body (a DELETE's DeleteOptions when it sent one). Pinned writes are enforced as kube-apiserver
 * does: DeleteOptions.preconditions uid/resourceVersion → 409, a patch carrying another
 * resourceVersion → 409, another metadata.uid → 422, a failed json-patch `test` → 422.
 */
export interface RecordedWrite {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  kind: string;
  namespace?: string;
  name: string;
  dryRun: boolean;
  contentType?: string;
  body?: unknown;
  query: Record<string, string>;
}

/** A fault to inject: matching requests get `status` with a Kubernetes Status body, `times` times (default: always). */
export interface FailRule {
  method?: string;
  /** Exact path (without query). */
  path?: string;
  pathPrefix?: string;
  status: number;
  times?: number;
  body?: unknown;
  /** Cut the connection instead of answering (a TCP reset mid-request); `status` is then ignored. */
  reset?: boolean;
}

export interface FakeKubeApi {
  url: string;
  port: number;
  requests: RecordedRequest[];
  writes: RecordedWrite[];
  /** Delay before every response. */
  delayMs: number;
  /**
   * Called with each write right after it is recorded and before it is applied: a test can change
   * the store there (e.g. recreate the target under the same name) to race the write deterministically.
   */
  beforeWrite?: (w: RecordedWrite) => void;
  /**
   * Called with each request once its body arrived: a promise returned holds the answer until it
   * settles (a test keeps a planner's dry run in flight while other clicks come in).
   */
  hold?: (r: RecordedRequest) => Promise<void> | undefined;
  fail(rule: FailRule): void;
  /** Drop every fault rule not used up yet (the server heals). */
  clearFaults(): void;
  setReadyz(mode: ReadyzMode): void;
  /** Apply a change to the store and push it to matching watches (BOOKMARK: a bookmark to watches that allow them). */
  emit(type: StoreEvent['type'], obj: KubeObject): void;
  /** The stored object, for assertions. */
  find(kind: string, name: string, namespace?: string): KubeObject | undefined;
  /** The stored objects of a kind (all namespaces, or one), sorted by namespace/name; shared: clone before changing. */
  list(kind: string, namespace?: string): KubeObject[];
  /**
   * Serve another cluster from this same server and port under the path prefix `/clusters/NAME`
   * (its `url` is `<this url>/clusters/NAME`): its own store, watches, faults and records. One
   * process serves a management cluster and many workload clusters this way (fleet tests, bench).
   * Only on the server `startFakeKubeApi` returned; closing a member stops serving it.
   */
  addCluster(name: string, opts?: FakeKubeApiOptions): Promise<FakeKubeApi>;
  /** Watch requests open now, as `<plural>[.<group>]` per watch (fleet tests: one watcher per kind). */
  openWatches(): string[];
  close(): Promise<void>;
}

interface Watcher {
  spec: KindSpec;
  namespace?: string;
  filter: (o: KubeObject) => boolean;
  bookmarks: boolean;
  res: http.ServerResponse;
}

interface Target {
  spec: KindSpec;
  version: string;
  namespace?: string;
  name?: string;
}

/**
 * A real HTTP server on 127.0.0.1 that answers like kube-apiserver for the kinds in KINDS:
 * discovery, list (pagination, selectors), get, watch, POST/PATCH/DELETE (recorded, dryRun=All honoured),
 * /readyz and /livez, with fault injection. The real @kubernetes/client-node and kubectl talk to it.
 */
export async function startFakeKubeApi(opts: FakeKubeApiOptions = {}): Promise<FakeKubeApi> {
  const shared = { address: '127.0.0.1:0', url: '', port: 0 };
  const root = await createInstance(opts, shared);
  const members = new Map<string, Instance>();
  const server = http.createServer((req, res) => {
    // The sandbox serves its simulated clusters from here on loopback: no other web page may use them.
    const foreign = refuseForeignRequest(req, shared.port, { jsonPosts: true });
    if (foreign) {
      req.resume();
      return send(res, foreign.status, createKubeStatus(foreign.status, foreign.message));
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = /^\/clusters\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const member = m ? members.get(decodeURIComponent(m[1]!)) : undefined;
    if (member) url.pathname = m![2] ?? '/';
    (member ?? root).receive(req, res, url);
  });
  const api = root.api;
  api.addCluster = async (name, memberOpts = {}) => {
    if (members.has(name))
      throw new K8sHealthError('E_FAKE_KUBE_API', `fake-kube-api: cluster ${name} is already served`);
    const inst = await createInstance(memberOpts, shared);
    inst.api.url = `${shared.url}/clusters/${encodeURIComponent(name)}`;
    inst.api.port = shared.port;
    const closeMember = inst.api.close;
    inst.api.close = async () => {
      members.delete(name);
      await closeMember();
    };
    members.set(name, inst);
    return inst.api;
  };
  const closeRoot = api.close;
  api.close = async () => {
    for (const inst of [...members.values()]) await inst.api.close();
    await closeRoot();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  shared.address = `127.0.0.1:${port}`;
  shared.port = port;
  shared.url = `http://127.0.0.1:${port}`;
  api.port = port;
  api.url = shared.url;
  return api;
}

/** One cluster the server answers for: its store, watches, faults and records. */
interface Instance {
  api: FakeKubeApi;
  receive(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void;
}

async function createInstance(opts: FakeKubeApiOptions, shared: { address: string }): Promise<Instance> {
  const objects = [...(opts.objects ?? [])];
  let readyz: ReadyzMode = opts.readyz ?? 'healthy';
  if (opts.dir) {
    const dump = await readDumpObjects(opts.dir);
    objects.push(...(opts.cluster === 'management' ? (dump.management ?? dump.workload) : dump.workload));
    if (!opts.readyz && dump.apiserver && opts.cluster !== 'management') {
      readyz = !dump.apiserver.reachable ? 'down' : dump.apiserver.checks.length ? dump.apiserver.checks : 'healthy';
    }
  }
  const store = new KubeStore(objects, opts.serveAllKinds, opts.accessKinds);
  const access = opts.accessKinds ? createAccessControl(store) : undefined;
  const watchers = new Set<Watcher>();
  const jsonCache = new WeakMap<KubeObject, Map<string, string>>();
  const rules: FailRule[] = [];
  const delayed = new Set<NodeJS.Timeout>();

  const api: FakeKubeApi = {
    url: '',
    port: 0,
    requests: [],
    writes: [],
    delayMs: 0,
    fail: (rule) => void rules.push({ ...rule }),
    clearFaults: () => void rules.splice(0),
    setReadyz: (mode) => {
      readyz = mode;
      // Down means gone: open watches are cut too, as when every kube-apiserver stops.
      if (mode === 'down') for (const w of watchers) w.res.socket?.destroy();
    },
    emit(type, obj) {
      if (type === 'BOOKMARK') return broadcast(store.bookmark());
      if (type === 'ERROR') return broadcast({ type, object: obj, resourceVersion: 0 });
      const spec = findServedKind(obj.kind, obj.apiVersion) ?? findServedKind(obj.kind);
      if (!spec)
        throw new K8sHealthError(
          'E_FAKE_KUBE_API',
          `fake-kube-api: kind ${obj.kind} (${obj.apiVersion}) is not in KINDS`,
        );
      const ev =
        type === 'DELETED' ? store.remove(spec, obj.metadata.namespace, obj.metadata.name) : store.put(spec, obj, type);
      if (ev) broadcast(ev);
    },
    find(kind, name, namespace) {
      const spec = findServedKind(kind);
      return spec ? store.get(spec, namespace, name) : undefined;
    },
    list(kind, namespace) {
      const spec = findServedKind(kind);
      return spec ? store.list(spec, namespace) : [];
    },
    addCluster: () =>
      Promise.reject(new Error('fake-kube-api: addCluster is only available on the server startFakeKubeApi returned')),
    openWatches: () => [...watchers].map((w) => `${w.spec.plural}${w.spec.group ? `.${w.spec.group}` : ''}`).sort(),
    async close() {
      for (const t of delayed) clearTimeout(t);
      for (const w of watchers) w.res.end();
    },
  };

  function broadcast(ev: StoreEvent): void {
    for (const w of watchers) {
      if (ev.type === 'BOOKMARK') {
        if (w.bookmarks) writeEvent(w, ev);
      } else if (
        ev.type === 'ERROR' ||
        (ev.spec === w.spec &&
          (w.namespace === undefined || ev.object.metadata.namespace === w.namespace) &&
          w.filter(ev.object))
      ) {
        writeEvent(w, ev);
      }
    }
  }

  function writeEvent(w: Watcher, ev: StoreEvent): void {
    const object =
      ev.type === 'BOOKMARK'
        ? { kind: w.spec.kind, apiVersion: gv(w.spec, w.spec.versions[0]!), ...ev.object }
        : ev.object;
    w.res.write(
      JSON.stringify({
        type: ev.type,
        object: ev.spec ? withType(object, ev.spec, store.versionsOf(ev.spec)[0]!) : object,
      }) + '\n',
    );
  }

  const receive = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const query = Object.fromEntries(url.searchParams);
    const user = access?.userOf(req.headers.authorization);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      ...(user ? { user } : {}),
    };
    api.requests.push(recorded);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const run = () => handle(req, res, url, query, Buffer.concat(chunks).toString('utf8'));
      const answer = () => {
        if (api.delayMs <= 0) return run();
        const timer = setTimeout(() => {
          delayed.delete(timer);
          run();
        }, api.delayMs);
        delayed.add(timer);
      };
      const held = api.hold?.(recorded);
      if (held) void held.then(answer, answer);
      else answer();
    });
  };

  function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    query: Record<string, string>,
    body: string,
  ): void {
    const method = req.method ?? 'GET';
    // 'down': the API server is gone; every connection is cut (seed S1, kube-apiserver on all control planes removed).
    if (readyz === 'down') return void req.socket.destroy();
    const rule = rules.find(
      (r) =>
        (!r.method || r.method === method) &&
        (!r.path || url.pathname === r.path) &&
        (!r.pathPrefix || url.pathname.startsWith(r.pathPrefix)) &&
        (r.times ?? 1) > 0,
    );
    if (rule) {
      if (rule.times !== undefined) rule.times--;
      if (rule.reset) return void req.socket.destroy();
      return send(res, rule.status, rule.body ?? faultStatus(rule.status, method, url.pathname));
    }
    const user = access?.userOf(req.headers.authorization);
    const denied = user ? access!.deny(user, method, url.pathname, query) : undefined;
    if (denied) return send(res, 403, createKubeStatus(403, denied));
    const review =
      access && method === 'POST'
        ? answerSelfReview(
            url.pathname,
            body,
            user ? access.rulesOf(user) : undefined,
            opts.rulesReviewIncomplete === true,
          )
        : undefined;
    if (review) return send(res, review.status, review.body);
    if (url.pathname === '/readyz' || url.pathname === '/livez' || url.pathname === '/healthz') {
      const r = renderReadyz(readyz, 'verbose' in query, url.pathname.slice(1));
      res.writeHead(r.status, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end(r.body);
    }
    const discovery = method === 'GET' ? createDiscovery(store, url.pathname, shared.address) : undefined;
    if (discovery) return send(res, 200, discovery);
    const target = parseTarget(url.pathname);
    if (!target) return send(res, 404, createKubeStatus(404, 'the server could not find the requested resource'));
    try {
      if (method === 'GET' && !target.name && (query.watch === 'true' || query.watch === '1'))
        return watch(res, target, query);
      if (method === 'GET' && !target.name) return list(res, target, query);
      if (method === 'GET') return get(res, target);
      if (method === 'POST' && !target.name) return create(res, target, query, body, url.pathname);
      if (method === 'PATCH' && target.name) return patch(req, res, target, query, body);
      if (method === 'DELETE' && target.name) return remove(res, target, query, url.pathname, body);
      return send(res, 405, createKubeStatus(405, `the server does not allow this method on the requested resource`));
    } catch (err) {
      if (err instanceof SelectorError) return send(res, 400, createKubeStatus(400, err.message));
      if (err instanceof PatchError) return send(res, err.status, createKubeStatus(err.status, err.message));
      return send(res, 500, createKubeStatus(500, String(err)));
    }
  }

  /** /api/v1/[namespaces/NS/]PLURAL[/NAME] or /apis/G/V/[namespaces/NS/]PLURAL[/NAME] (namespaces/NAME is a get). */
  function parseTarget(pathname: string): Target | undefined {
    const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    let group: string, version: string, rest: string[];
    if (parts[0] === 'api') [group, version, rest] = ['', parts[1] ?? '', parts.slice(2)];
    else if (parts[0] === 'apis') [group, version, rest] = [parts[1] ?? '', parts[2] ?? '', parts.slice(3)];
    else return undefined;
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    if (rest.length < 1 || rest.length > 2) return undefined;
    const spec = store.resolve(group, version, rest[0]!);
    if (!spec || (namespace !== undefined && !spec.namespaced)) return undefined;
    return { spec, version, namespace, name: rest[1] };
  }

  function list(res: http.ServerResponse, t: Target, query: Record<string, string>): void {
    const selective = Boolean(query.labelSelector || query.fieldSelector);
    const all = selective
      ? store.list(t.spec, t.namespace).filter(createObjectFilter(query.labelSelector, query.fieldSelector))
      : store.list(t.spec, t.namespace);
    const limit = Number(query.limit) > 0 ? Number(query.limit) : Infinity;
    let start = 0;
    if (query.continue && query.resourceVersion) {
      return send(res, 400, createKubeStatus(400, 'specifying resource version is not allowed when using continue'));
    }
    if (query.continue) {
      const after = decodeContinue(query.continue);
      if (after === undefined)
        return send(
          res,
          410,
          createKubeStatus(
            410,
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
          ),
        );
      start = firstAfter(all, after);
    }
    const page = all.slice(start, start + limit);
    const metadata: Record<string, unknown> = { resourceVersion: store.resourceVersion };
    const remaining = all.length - start - page.length;
    if (remaining > 0) {
      metadata.continue = encodeContinue(objectKey(page[page.length - 1]!));
      metadata.remainingItemCount = remaining;
    }
    // Built by concatenating each object's cached JSON: the same bytes as JSON.stringify of the
    // whole list, but a 100,000-pod cluster does not make the fake the bottleneck.
    const head = JSON.stringify({ kind: `${t.spec.kind}List`, apiVersion: gv(t.spec, t.version), metadata });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(`${head.slice(0, -1)},"items":[${page.map((o) => serialized(o, t.spec, t.version)).join(',')}]}`);
  }

  /** JSON of an object as listed at a version, cached per stored object (a change stores a new object). */
  function serialized(obj: KubeObject, spec: KindSpec, version: string): string {
    let byVersion = jsonCache.get(obj);
    if (!byVersion) jsonCache.set(obj, (byVersion = new Map()));
    let json = byVersion.get(version);
    if (json === undefined) byVersion.set(version, (json = JSON.stringify(withType(obj, spec, version))));
    return json;
  }

  function get(res: http.ServerResponse, t: Target): void {
    const obj = store.get(t.spec, t.namespace, t.name!);
    if (!obj) return send(res, 404, notFound(t));
    send(res, 200, withType(obj, t.spec, t.version));
  }

  function watch(res: http.ServerResponse, t: Target, query: Record<string, string>): void {
    const w: Watcher = {
      spec: t.spec,
      namespace: t.namespace,
      filter: createObjectFilter(query.labelSelector, query.fieldSelector),
      bookmarks: query.allowWatchBookmarks === 'true',
      res,
    };
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    // kube-apiserver sends the headers at once, before any event: a watch client knows it is open.
    res.flushHeaders();
    const from = Number(query.resourceVersion);
    if (!query.resourceVersion || query.resourceVersion === '0' || query.sendInitialEvents === 'true') {
      for (const obj of store.list(t.spec, t.namespace).filter(w.filter))
        writeEvent(w, { type: 'ADDED', object: obj, spec: t.spec, resourceVersion: 0 });
      if (query.sendInitialEvents === 'true') {
        const b = store.bookmark();
        b.object.metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
        writeEvent(w, b);
      }
    } else {
      // Resume: replay what changed after the given resourceVersion.
      for (const ev of store.log)
        if (
          ev.resourceVersion > from &&
          ev.spec === t.spec &&
          (t.namespace === undefined || ev.object.metadata.namespace === t.namespace) &&
          w.filter(ev.object)
        )
          writeEvent(w, ev);
    }
    watchers.add(w);
    const timeout =
      Number(query.timeoutSeconds) > 0 ? setTimeout(() => res.end(), Number(query.timeoutSeconds) * 1000) : undefined;
    res.on('close', () => {
      watchers.delete(w);
      if (timeout) clearTimeout(timeout);
    });
  }

  function patch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    t: Target,
    query: Record<string, string>,
    body: string,
  ): void {
    const dryRun = checkDryRun(res, query);
    if (dryRun === undefined) return;
    const contentType = req.headers['content-type'] ?? '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(res, 400, createKubeStatus(400, 'error decoding patch: invalid JSON'));
    }
    recordWrite({
      method: 'PATCH',
      path: req.url?.split('?')[0] ?? '',
      kind: t.spec.kind,
      namespace: t.namespace,
      name: t.name!,
      dryRun,
      contentType,
      body: parsed,
      query,
    });
    const current = store.get(t.spec, t.namespace, t.name!);
    if (!current) return send(res, 404, notFound(t));
    const next = applyPatch(current, contentType, parsed) as KubeObject;
    if (next?.metadata?.name !== t.name || (t.spec.namespaced && next.metadata.namespace !== t.namespace)) {
      return send(
        res,
        400,
        createKubeStatus(
          400,
          `the name of the object (${next?.metadata?.name}) does not match the name on the URL (${t.name})`,
        ),
      );
    }
    // As the generic registry's Update does (k8s.io/apiserver registry/generic/registry/store.go): a
    // patched object whose resourceVersion differs from the stored one is an optimistic-lock conflict
    // (409), checked before validation; then metadata.uid is immutable (rest.BeforeUpdate →
    // ValidateObjectMetaUpdate, 422). A patch that sets neither leaves both as stored. Dry runs too.
    if (String(next.metadata.resourceVersion) !== String(current.metadata.resourceVersion)) {
      return send(
        res,
        409,
        createKubeStatus(
          409,
          `Operation cannot be fulfilled on ${qualified(t)} "${t.name}": the object has been modified; please apply your changes to the latest version and try again`,
          details(t),
        ),
      );
    }
    if (next.metadata.uid !== current.metadata.uid) {
      return send(
        res,
        422,
        createKubeStatus(
          422,
          `${t.spec.kind}${t.spec.group ? `.${t.spec.group}` : ''} "${t.name}" is invalid: metadata.uid: Invalid value: "${next.metadata.uid}": field is immutable`,
          { name: t.name, group: t.spec.group, kind: t.spec.kind },
        ),
      );
    }
    if (dryRun) return send(res, 200, withType(next, t.spec, t.version));
    const ev = store.put(t.spec, next);
    broadcast(ev);
    send(res, 200, withType(ev.object, t.spec, t.version));
  }

  /**
   * POST to a collection: 201 with the stored object and its server-set metadata (uid,
   * creationTimestamp, generation, resourceVersion), 409 AlreadyExists, or 400/500 for what
   * kube-apiserver refuses too. A dry run is validated the same way but never stored.
   */
  function create(
    res: http.ServerResponse,
    t: Target,
    query: Record<string, string>,
    body: string,
    path: string,
  ): void {
    const dryRun = checkDryRun(res, query);
    if (dryRun === undefined) return;
    let obj: KubeObject;
    try {
      obj = JSON.parse(body) as KubeObject;
    } catch {
      return send(res, 400, createKubeStatus(400, 'error decoding the request body: invalid JSON'));
    }
    const name = obj?.metadata?.name;
    recordWrite({
      method: 'POST',
      path,
      kind: t.spec.kind,
      namespace: t.namespace,
      name: String(name ?? ''),
      dryRun,
      body: obj,
      query,
    });
    if (obj?.kind !== undefined && obj.kind !== t.spec.kind)
      return send(
        res,
        400,
        createKubeStatus(400, `the kind of the object (${obj.kind}) does not match the resource ${t.spec.plural}`),
      );
    if (typeof name !== 'string' || !name)
      return send(
        res,
        422,
        createKubeStatus(
          422,
          `${t.spec.kind} is invalid: metadata.name: Required value: name or generateName is required`,
        ),
      );
    if (t.spec.namespaced && obj.metadata.namespace !== undefined && obj.metadata.namespace !== t.namespace) {
      return send(
        res,
        400,
        createKubeStatus(400, 'the namespace of the provided object does not match the namespace sent on the request'),
      );
    }
    // As kube-apiserver's storage does: a create carrying a resourceVersion is refused.
    if (obj.metadata.resourceVersion)
      return send(res, 500, createKubeStatus(500, 'resourceVersion should not be set on objects to be created'));
    const metadata = {
      ...obj.metadata,
      ...(t.spec.namespaced ? { namespace: t.namespace } : {}),
      uid: randomUUID(),
      creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      generation: 1,
    };
    delete metadata.deletionTimestamp;
    // As kube-apiserver stores it: with kind and apiVersion, whether or not the client sent them.
    const typed = {
      ...obj,
      kind: t.spec.kind,
      apiVersion: obj.apiVersion ?? gv(t.spec, t.version),
      metadata,
    } as KubeObject;
    const next = access ? access.complete(t.spec, typed) : typed;
    const exists = store.get(t.spec, t.namespace, name);
    if (exists) return send(res, 409, alreadyExists(t, name));
    if (dryRun) return send(res, 201, withType(next, t.spec, t.version));
    const ev = store.create(t.spec, next);
    if (!ev) return send(res, 409, alreadyExists(t, name));
    broadcast(ev);
    send(res, 201, withType(ev.object, t.spec, t.version));
  }

  function remove(
    res: http.ServerResponse,
    t: Target,
    query: Record<string, string>,
    path: string,
    body: string,
  ): void {
    const dryRun = checkDryRun(res, query);
    if (dryRun === undefined) return;
    let options: { preconditions?: { uid?: string; resourceVersion?: string } } | undefined;
    try {
      options = body ? JSON.parse(body) : undefined;
    } catch {
      return send(res, 400, createKubeStatus(400, 'error decoding the request body: invalid JSON'));
    }
    recordWrite({
      method: 'DELETE',
      path,
      kind: t.spec.kind,
      namespace: t.namespace,
      name: t.name!,
      dryRun,
      query,
      ...(options ? { body: options } : {}),
    });
    const current = store.get(t.spec, t.namespace, t.name!);
    if (!current) return send(res, 404, notFound(t));
    // DeleteOptions.preconditions, as kube-apiserver checks them before deleting (dry runs included):
    // k8s.io/apiserver registry/rest/delete.go BeforeDelete, answered as 409 Conflict by the store.
    const pre = options?.preconditions;
    const conflict = (message: string) =>
      send(
        res,
        409,
        createKubeStatus(
          409,
          `Operation cannot be fulfilled on ${t.spec.kind}${t.spec.group ? `.${t.spec.group}` : ''} "${t.name}": ${message}`,
          { name: t.name, group: t.spec.group, kind: t.spec.kind },
        ),
      );
    if (pre?.uid !== undefined && pre.uid !== current.metadata.uid) {
      return conflict(
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
      );
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== current.metadata.resourceVersion) {
      return conflict(
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
      );
    }
    if (dryRun) return send(res, 200, withType(current, t.spec, t.version));
    if (current.metadata.finalizers?.length) {
      // Finalizers keep the object, marked for deletion, until their controller removes them.
      const ev = store.put(t.spec, {
        ...current,
        metadata: {
          ...current.metadata,
          deletionTimestamp: current.metadata.deletionTimestamp ?? new Date().toISOString(),
        },
      });
      broadcast(ev);
      return send(res, 200, withType(ev.object, t.spec, t.version));
    }
    const ev = store.remove(t.spec, t.namespace, t.name!)!;
    broadcast(ev);
    send(res, 200, withType(ev.object, t.spec, t.version));
  }

  function recordWrite(w: RecordedWrite): void {
    api.writes.push(w);
    api.beforeWrite?.(w);
  }

  /** true/false for a dry run or not; undefined after answering 400 for a bad value. */
  function checkDryRun(res: http.ServerResponse, query: Record<string, string>): boolean | undefined {
    if (query.dryRun === undefined) return false;
    if (query.dryRun === 'All') return true;
    send(res, 400, createKubeStatus(400, `Invalid dryRun value "${query.dryRun}": supported values are "All"`));
    return undefined;
  }

  function faultStatus(status: number, method: string, pathname: string) {
    const t = parseTarget(pathname);
    const verb =
      method === 'POST'
        ? 'create'
        : method === 'PATCH'
          ? 'patch'
          : method === 'DELETE'
            ? 'delete'
            : t?.name
              ? 'get'
              : 'list';
    if (status === 403 && t)
      return createKubeStatus(
        403,
        forbiddenMessage(verb, t.spec.group, t.spec.plural, t.namespace, t.name),
        details(t),
      );
    if (status === 404 && t) return notFound(t);
    if (status === 401) return createKubeStatus(401, 'Unauthorized');
    return createKubeStatus(
      status,
      status >= 500 ? 'Internal error occurred: injected fault' : `injected ${status}`,
      t && details(t),
    );
  }

  return { api, receive };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function gv(spec: KindSpec, version: string): string {
  return spec.group ? `${spec.group}/${version}` : version;
}

/** Items carry apiVersion/kind, as `kubectl get -o json` shows them (the stored apiVersion wins). */
function withType(obj: KubeObject, spec: KindSpec, version: string): KubeObject {
  return { ...obj, apiVersion: obj.apiVersion ?? gv(spec, version), kind: obj.kind ?? spec.kind };
}

function details(t: Target) {
  return { ...(t.name ? { name: t.name } : {}), group: t.spec.group, kind: t.spec.plural };
}

/** `deployments.apps`, `pods`: the group-qualified resource kube-apiserver names in conflicts and not-founds. */
function qualified(t: Target): string {
  return t.spec.group ? `${t.spec.plural}.${t.spec.group}` : t.spec.plural;
}

function notFound(t: Target) {
  const what = qualified(t);
  return createKubeStatus(404, `${what} "${t.name}" not found`, details(t));
}

/** 409 with reason AlreadyExists, as kube-apiserver answers a create of an existing name. */
function alreadyExists(t: Target, name: string) {
  const what = t.spec.group ? `${t.spec.plural}.${t.spec.group}` : t.spec.plural;
  return {
    ...createKubeStatus(409, `${what} "${name}" already exists`, { ...details(t), name }),
    reason: 'AlreadyExists',
  };
}

/** Index of the first object whose key sorts after `key` (lists are sorted by key: binary search). */
function firstAfter(all: KubeObject[], key: string): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (objectKey(all[mid]!) > key) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function objectKey(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/** Continue tokens are opaque to clients (base64 of the last key returned), as in kube-apiserver. */
function encodeContinue(lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'fake.k8s.io/v1', start: lastKey })).toString('base64url');
}

function decodeContinue(token: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start?: unknown };
    return typeof parsed.start === 'string' ? parsed.start : undefined;
  } catch {
    return undefined;
  }
}
