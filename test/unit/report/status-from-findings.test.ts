import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { KINDS } from '../../../src/cluster/kinds.js';
import type { KindCoverage, PodProjection, Snapshot } from '../../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../../src/config/config-schema.js';
import { SECTION_IDS } from '../../../src/diagnose/finding.js';
import { buildReport, sectionStatus } from '../../../src/report/build-report.js';
import { summarizeSection } from '../../../src/report/summarize-section.js';
import { scanSnapshot } from '../../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../../src/store/in-memory-history.js';
import { buildSnapshot, NOW } from '../../support/build-snapshot.js';
import { node, pod } from '../../support/snapshot-b.js';

/** Green means something was counted, and the overall status comes from findings only. */
const allRead = (): Record<string, KindCoverage> =>
  Object.fromEntries(KINDS.map((k) => [k.kind, { state: 'read' as const }]));
const scan = (s: Snapshot) =>
  scanSnapshot(s, { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS, now: new Date(NOW) });

const unschedulable = (ns: string, name: string): PodProjection =>
  pod(ns, name, {
    phase: 'Pending',
    containers: [],
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: '0/1 nodes are available: 1 Insufficient cpu.',
        lastTransitionTime: '2023-11-30T16:00:00Z',
      },
    ],
  });
const crashing = (ns: string, name: string): PodProjection =>
  pod(ns, name, {
    phase: 'Running',
    containers: [{ name: 'app', ready: false, restartCount: 4, waiting: { reason: 'CrashLoopBackOff' } }],
  });
const oneNode = (pods: PodProjection[]) =>
  buildSnapshot({
    nodes: [node('cp-1', { cp: true })],
    pods: [pod('kube-system', 'coredns-1'), ...pods],
    coverage: allRead(),
  });

describe('no status without a finding', () => {
  it('one unschedulable pod of an e2e test namespace on a healthy one-node cluster: an info finding naming it, status healthy', async () => {
    const r = await scan(oneNode([unschedulable('e2e-tests-sched-pred-x7k2p', 'filler-pod-1')]));
    const f = r.findings.filter((x) => x.id === 'workload.pods-unhealthy');
    expect(f.map((x) => [x.severity, x.subject.name])).toEqual([['info', 'e2e-tests-sched-pred-x7k2p']]);
    expect(f[0]!.title).toContain('filler-pod-1');
    expect(r.sections.find((s) => s.id === 'workloads')?.status).toBe('degraded');
    expect(r.status).toBe('healthy');
  });

  it('three pods of one application namespace, or one of a system namespace: a warning per namespace, the status degraded', async () => {
    const r = await scan(
      oneNode([
        crashing('shop', 'cart-a'),
        crashing('shop', 'cart-b'),
        unschedulable('shop', 'cart-c'),
        crashing('kube-system', 'metrics-server-1'),
        crashing('blog', 'web-1'),
      ]),
    );
    const f = r.findings
      .filter((x) => x.id === 'workload.pods-unhealthy')
      .map((x) => `${x.severity} ${x.subject.name}: ${x.evidence.length}`);
    expect(f.sort()).toEqual(['info blog: 1', 'warning kube-system: 1', 'warning shop: 3']);
    expect(r.status).toBe('degraded');
    const shop = r.findings.find((x) => x.subject.name === 'shop')!;
    expect(shop.evidence.join('\n')).toMatch(/shop\/cart-a.*\n.*shop\/cart-b.*\n.*shop\/cart-c/);
  });

  it('a section that could not be read stays unknown, and so does the report when it is a key one', () => {
    const s = oneNode([]);
    s.coverage = { ...allRead(), Pod: { state: 'failed', why: 'pods is forbidden' } };
    const r = buildReport(s, { findings: [], errors: [] }, { generatedAt: new Date(NOW) });
    expect(r.sections.find((x) => x.id === 'workloads')?.status).toBe('unknown');
    expect(r.status).toBe('unknown');
  });

  it('"0 of 1 control-plane nodes Ready" is never green', () => {
    const s = buildSnapshot({ nodes: [node('cp-1', { cp: true, ready: 'False' })], coverage: allRead() });
    const line = summarizeSection('controlplane', s);
    expect(line.summary).toBe('0 of 1 control-plane nodes Ready');
    expect(sectionStatus([], line)).toBe('degraded');
  });
});

/** Random clusters: nodes Ready or not (control plane or worker, under pressure or not), pods healthy or in trouble. */
const arbSnapshot = fc
  .record({
    nodes: fc.array(
      fc.record({ ready: fc.constantFrom('True' as const, 'False' as const, 'Unknown' as const), cp: fc.boolean() }),
      { maxLength: 6 },
    ),
    pods: fc.array(
      fc.record({
        ns: fc.constantFrom('default', 'kube-system', 'shop'),
        trouble: fc.constantFrom('none', 'crash', 'unschedulable'),
      }),
      { maxLength: 8 },
    ),
    webhooks: fc.boolean(),
    coverage: fc.boolean(),
    apiserver: fc.constantFrom('none', 'ready', 'failing', 'unreachable'),
    // etcd: members that answer status (naming the first as leader), commit a proposal, fail, or are not asked.
    etcd: fc.option(
      fc.array(
        fc.record({
          status: fc.constantFrom('leader', 'answers', 'error', 'none'),
          health: fc.constantFrom('true', 'false', 'none'),
          learner: fc.boolean(),
        }),
        { minLength: 1, maxLength: 7 },
      ),
      { nil: undefined },
    ),
    listed: fc.boolean(),
  })
  .map((o) => {
    const pods = o.pods.map((p, i) =>
      p.trouble === 'crash'
        ? crashing(p.ns, `p-${i}`)
        : p.trouble === 'unschedulable'
          ? unschedulable(p.ns, `p-${i}`)
          : pod(p.ns, `p-${i}`),
    );
    const s = buildSnapshot({
      nodes: o.nodes.map((n, i) => node(`n-${i}`, n)),
      pods,
      ...(o.coverage ? { coverage: allRead() } : {}),
    });
    if (o.apiserver === 'ready') s.apiserver = { reachable: true, ready: true, checks: [{ name: 'etcd', ok: true }] };
    if (o.apiserver === 'failing')
      s.apiserver = {
        reachable: true,
        ready: false,
        checks: [{ name: 'etcd', ok: false, message: 'etcdserver: no leader' }],
      };
    if (o.apiserver === 'unreachable') s.apiserver = { reachable: false, checks: [], error: 'connect ECONNREFUSED' };
    if (o.etcd) {
      const ep = (i: number) => `https://10.0.0.${i + 1}:2379`;
      s.etcd = {
        source: 'etcdctl',
        members: o.listed
          ? o.etcd.map((m, i) => ({
              id: String(i + 1),
              name: `m${i}`,
              peerURLs: [],
              clientURLs: [ep(i)],
              isLearner: m.learner,
            }))
          : [],
        endpoints: o.etcd.flatMap((m, i) =>
          m.status === 'none'
            ? []
            : [
                {
                  endpoint: ep(i),
                  memberId: String(i + 1),
                  ...(m.status === 'error'
                    ? { errors: ['etcdserver: no leader'] }
                    : { leader: m.status === 'leader' ? String(i + 1) : '1', errors: [] }),
                },
              ],
        ),
        health: o.etcd.flatMap((m, i) =>
          m.health === 'none'
            ? []
            : [
                {
                  endpoint: ep(i),
                  health: m.health === 'true',
                  ...(m.health === 'false' ? { error: 'connection refused' } : {}),
                },
              ],
        ),
        alarms: [],
      };
    }
    return s;
  });

describe('green means something was counted (property)', () => {
  it('every section summary: healthy ⇒ counted ready equals counted total and the total is > 0', () => {
    fc.assert(
      fc.property(arbSnapshot, (s) => {
        for (const id of SECTION_IDS) {
          const line = summarizeSection(id, s);
          if (sectionStatus([], line) !== 'healthy') continue;
          expect(`${id}: ${JSON.stringify(line.counted)}`).toBe(
            `${id}: ${JSON.stringify({ ready: line.counted!.total, total: line.counted!.total })}`,
          );
          expect(line.counted!.total).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('info findings never raise the overall status', async () => {
    await fc.assert(
      fc.asyncProperty(arbSnapshot, async (s) => {
        const r = await scan(s);
        const worst = r.findings.some((f) => f.severity === 'critical')
          ? 'critical'
          : r.findings.some((f) => f.severity === 'warning')
            ? 'degraded'
            : undefined;
        if (worst) expect(r.status).toBe(worst);
        else expect(['healthy', 'unknown']).toContain(r.status);
      }),
      { numRuns: 60 },
    );
  });
});
