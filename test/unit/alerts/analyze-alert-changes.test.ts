import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../../src/diagnose/finding.js';
import { analyzeAlertChanges } from '../../../src/alerts/analyze-alert-changes.js';
import { EMPTY_ALERT_STATE, type ClusterAlertState } from '../../../src/alerts/incident.js';
import { migrateAlertState } from '../../../src/alerts/migrate-alert-state.js';
import type { Report } from '../../../src/report/report.js';
import { renderAlertReply } from '../../../src/slack/render/render-alert.js';

/**
 * The pure alert transition: which scan opens, replies to, resolves and reopens a thread. Changes are
 * data (no Slack text in the alert state); slack/render/render-alert.ts words them.
 */
const opts = { channel: 'C0ALERTS', resolveAfterScans: 3, flapWindowMinutes: 30 };

function finding(over: Partial<Finding> = {}): Finding {
  return {
    id: 'etcd.leader-unreachable',
    severity: 'critical',
    section: 'etcd',
    title: 'etcd leader m1 unreachable',
    subject: { kind: 'EtcdMember', name: 'm1' },
    evidence: ['member m2 points at leader m1 (last seen 5m ago)'],
    remediations: [],
    confidence: 'high',
    fingerprint: 'fp-leader',
    ...over,
  };
}

function report(at: string, findings: Finding[]): Report {
  return { cluster: 'c1', generatedAt: at, collectedAt: at, status: 'critical', sections: [], findings, partial: [] };
}

function run(states: ClusterAlertState, at: string, findings: Finding[]) {
  return analyzeAlertChanges(states, report(at, findings), opts);
}

describe('analyzeAlertChanges', () => {
  it('opens an incident for a new warning/critical finding, never for info', () => {
    const { state, changed } = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [
      finding(),
      finding({ fingerprint: 'fp-info', severity: 'info' }),
    ]);
    expect(changed.map((i) => i.fingerprint)).toEqual(['fp-leader']);
    expect(state.incidents['fp-leader']!.changes.map((c) => c.kinds)).toEqual([['opened']]);
    expect(state.incidents['fp-info']).toBeUndefined();
  });

  it('ignores evidence whose only change is a relative age, replies to new evidence', () => {
    let s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [finding()]).state;
    const same = run(s, '2025-01-01T10:01:00Z', [
      finding({ evidence: ['member m2 points at leader m1 (last seen 6m ago)'] }),
    ]);
    expect(same.changed).toEqual([]);
    s = same.state;
    const more = run(s, '2025-01-01T10:02:00Z', [
      finding({ evidence: ['member m2 points at leader m1 (last seen 7m ago)', 'member m3 points at leader m1'] }),
    ]);
    const change = more.changed[0]!.changes.at(-1)!;
    expect(change.kinds).toEqual(['evidence']);
    expect(change.details).toEqual([{ kind: 'evidence', lines: ['member m3 points at leader m1'], more: 0 }]);
    expect(JSON.stringify(renderAlertReply(more.changed[0]!, change).blocks)).toContain(
      ':mag: New evidence:\\n> member m3 points at leader m1',
    );
  });

  it('replies to severity up and down and to a symptom that names it as its cause (one thread per root cause)', () => {
    let s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [finding({ severity: 'warning' })]).state;
    const up = run(s, '2025-01-01T10:01:00Z', [finding()]);
    expect(up.changed[0]!.changes.at(-1)!.details).toEqual([{ kind: 'severity', from: 'warning', to: 'critical' }]);
    expect(renderAlertReply(up.changed[0]!, up.changed[0]!.changes.at(-1)!).text).toBe(
      'c1 etcd.leader-unreachable: :arrow_up: Severity raised: warning → *critical*',
    );
    s = up.state;
    const symptom = finding({
      id: 'capi.machine-stuck-provisioning',
      severity: 'warning',
      fingerprint: 'fp-machine',
      title: 'Machine stuck',
      causedBy: ['fp-leader'],
      subject: { kind: 'Machine', name: 'x' },
    });
    const rel = run(s, '2025-01-01T10:02:00Z', [finding({ severity: 'warning' }), symptom]);
    const leader = rel.state.incidents['fp-leader']!;
    expect(leader.changes.at(-1)!.kinds).toEqual(['severity', 'related']);
    expect(leader.changes.at(-1)!.details[1]).toEqual({
      kind: 'related',
      findings: [
        {
          fingerprint: 'fp-machine',
          id: 'capi.machine-stuck-provisioning',
          title: 'Machine stuck',
          severity: 'warning',
          relation: 'symptom',
        },
      ],
    });
    expect(JSON.stringify(renderAlertReply(leader, leader.changes.at(-1)!).blocks)).toContain(
      'New symptom of this root cause: warning *Machine stuck*',
    );
    // The symptom has no thread of its own: it is listed in its root cause's.
    expect(rel.state.incidents['fp-machine']).toBeUndefined();
    expect(leader.symptoms!.map((x) => x.fingerprint)).toEqual(['fp-machine']);
  });

  it('counts a recreation again from the recreation-loop title', () => {
    const loop = (n: number) =>
      finding({
        id: 'capi.recreation-loop',
        fingerprint: 'fp-loop',
        title: `KubeadmControlPlane ns/kcp: ${n} machine replacements in 1h30m`,
        evidence: [],
      });
    const s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [loop(3)]).state;
    const again = run(s, '2025-01-01T10:12:00Z', [loop(4)]);
    expect(again.changed[0]!.changes.at(-1)!.details).toEqual([{ kind: 'recreation', from: 3, to: 4 }]);
    expect(renderAlertReply(again.changed[0]!, again.changed[0]!.changes.at(-1)!).text).toContain(
      'Recreation counted again: 3 → *4*',
    );
  });

  it('resolves after resolveAfterScans absent scans, reopens within the flap window, new thread after it', () => {
    let s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [finding()]).state;
    const key = s.incidents['fp-leader']!.key;
    s = run(s, '2025-01-01T10:01:00Z', []).state;
    s = run(s, '2025-01-01T10:02:00Z', []).state;
    expect(s.incidents['fp-leader']!.status).toBe('open');
    const resolved = run(s, '2025-01-01T10:03:00Z', []);
    expect(resolved.changed[0]!.status).toBe('resolved');
    expect(resolved.changed[0]!.changes.at(-1)!.details).toEqual([
      { kind: 'resolved', missedScans: 3, lastSeenAt: '2025-01-01T10:00:00Z', lastedMs: 0 },
    ]);
    s = resolved.state;
    // A scan that finishes late with older data must not roll the thread back.
    expect(run(s, '2025-01-01T09:59:00Z', [finding()]).changed).toEqual([]);
    const back = run(s, '2025-01-01T10:20:00Z', [finding()]);
    expect(back.changed[0]!.key).toBe(key);
    expect(back.changed[0]!.changes.at(-1)!.details).toEqual([{ kind: 'reopened', resolvedForMs: 17 * 60_000 }]);
    expect(renderAlertReply(back.changed[0]!, back.changed[0]!.changes.at(-1)!).text).toContain(
      '*Back again* 17m after it was resolved',
    );
    s = back.state;
    for (const t of ['10:21', '10:22', '10:23']) s = run(s, `2025-01-01T${t}:00Z`, []).state;
    const later = run(s, '2025-01-01T11:00:00Z', [finding()]);
    expect(later.changed[0]!.key).not.toBe(key);
    expect(later.changed[0]!.changes.map((c) => c.kinds)).toEqual([['opened']]);
  });

  it('an open incident whose finding drops to info resolves like an absent one (no thread kept open by an info echo)', () => {
    let s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [finding()]).state;
    for (const at of ['2025-01-01T10:01:00Z', '2025-01-01T10:02:00Z']) {
      const r = run(s, at, [finding({ severity: 'info' })]);
      expect(r.changed).toEqual([]);
      s = r.state;
    }
    expect(s.incidents['fp-leader']!.status).toBe('open');
    const last = run(s, '2025-01-01T10:03:00Z', [finding({ severity: 'info' })]);
    expect(last.state.incidents['fp-leader']!.status).toBe('resolved');
    expect(last.changed[0]!.changes.at(-1)!.kinds).toEqual(['resolved']);
    // Back as a warning within the flap window: the same thread reopens.
    const back = run(last.state, '2025-01-01T10:05:00Z', [finding({ severity: 'warning' })]);
    expect(back.changed[0]!.changes.at(-1)!.kinds).toContain('reopened');
  });

  it('hands out strictly increasing sequence numbers across incidents', () => {
    const a = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [
      finding(),
      finding({ fingerprint: 'fp-2', subject: { kind: 'EtcdMember', name: 'm2' } }),
    ]);
    const seqs = Object.values(a.state.incidents).map((i) => i.seq);
    expect(new Set(seqs).size).toBe(2);
    expect(a.state.seq).toBe(Math.max(...seqs));
  });

  it('stores no Slack text: every change is data, whatever the cluster wrote', () => {
    const hostile = finding({ title: '<!channel> *evil*', evidence: ['`x` <@U0EVIL>'] });
    let s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [hostile]).state;
    s = run(s, '2025-01-01T10:01:00Z', [
      finding({ ...hostile, severity: 'warning', evidence: ['new <https://x|y>'] }),
    ]).state;
    for (const c of s.incidents['fp-leader']!.changes)
      expect(Object.keys(c).sort()).toEqual(['at', 'details', 'kinds', 'seq']);
    // Raw in the state (data), neutralized only when rendered.
    expect(JSON.stringify(s)).toContain('new <https://x|y>');
    expect(
      JSON.stringify(renderAlertReply(s.incidents['fp-leader']!, s.incidents['fp-leader']!.changes.at(-1)!).blocks),
    ).not.toContain('<https://');
  });
});

describe('one thread per root cause', () => {
  const root = finding();
  const mid = finding({
    id: 'controlplane.node-not-joined',
    severity: 'warning',
    fingerprint: 'fp-mid',
    title: 'node not joined',
    causedBy: ['fp-leader'],
    subject: { kind: 'Machine', name: 'cp-1' },
  });
  const leaf = finding({
    id: 'controlplane.degraded',
    severity: 'critical',
    fingerprint: 'fp-leaf',
    title: 'control plane degraded',
    causedBy: ['fp-mid'],
    since: '2025-01-01T09:50:00Z',
    subject: { kind: 'KubeadmControlPlane', name: 'kcp' },
  });
  const lone = finding({
    id: 'node.not-ready',
    severity: 'warning',
    fingerprint: 'fp-lone',
    title: 'node w1 NotReady',
    causedBy: ['fp-gone'],
    subject: { kind: 'Node', name: 'w1' },
  });

  it('groups a cause chain under its deepest cause; a symptom without a known cause keeps its own thread', () => {
    const { state } = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [leaf, mid, root, lone]);
    expect(Object.keys(state.incidents).sort()).toEqual(['fp-leader', 'fp-lone']);
    expect(state.incidents['fp-leader']!.symptoms!.map((x) => [x.fingerprint, x.severity, x.since])).toEqual([
      ['fp-leaf', 'critical', '2025-01-01T09:50:00Z'],
      ['fp-mid', 'warning', undefined],
    ]);
    expect(state.incidents['fp-leader']!.changes.map((c) => c.kinds)).toEqual([['opened']]);
  });

  it('closes the thread of a finding that turns out to be a symptom into its cause (never more open threads than root causes)', () => {
    let s = run(EMPTY_ALERT_STATE, '2025-01-01T10:00:00Z', [leaf]).state;
    expect(s.incidents['fp-leaf']!.status).toBe('open');
    const r = run(s, '2025-01-01T10:01:00Z', [leaf, mid, root]);
    s = r.state;
    expect(s.incidents['fp-leaf']!.status).toBe('resolved');
    expect(s.incidents['fp-leaf']!.mergedInto).toBe('fp-leader');
    expect(s.incidents['fp-leaf']!.changes.at(-1)!.details).toEqual([
      { kind: 'merged', into: 'fp-leader', id: 'etcd.leader-unreachable', title: 'etcd leader m1 unreachable' },
    ]);
    expect(
      Object.values(s.incidents)
        .filter((i) => i.status === 'open')
        .map((i) => i.fingerprint),
    ).toEqual(['fp-leader']);
    expect(renderAlertReply(s.incidents['fp-leaf']!, s.incidents['fp-leaf']!.changes.at(-1)!).text).toContain(
      'symptom of *etcd leader m1 unreachable*',
    );
    // The root cause resolves: its thread resolves; a symptom still there then becomes a root of its own.
    for (const t of ['10:02', '10:03']) s = run(s, `2025-01-01T${t}:00Z`, [leaf]).state;
    expect(s.incidents['fp-leader']!.status).toBe('open');
    s = run(s, '2025-01-01T10:04:00Z', [leaf]).state;
    expect(s.incidents['fp-leader']!.status).toBe('resolved');
    expect(s.incidents['fp-leaf']!.status).toBe('open');
  });

  it('reminds at most every pausedReminderHours while remediation is paused, naming how to resume', () => {
    const paused = finding({
      id: 'capi.remediation-paused',
      severity: 'warning',
      fingerprint: 'fp-paused',
      title: 'Remediation paused on MachineHealthCheck ns/mhc',
      causedBy: ['fp-leader'],
      since: '2025-01-01T10:00:00Z',
      subject: { kind: 'MachineHealthCheck', namespace: 'ns', name: 'mhc' },
      remediations: [
        { action: 'mhc.resume-remediation', params: {}, label: 'Resume remediation: mhc', risk: 'loop again' },
      ],
    });
    const o = { ...opts, pausedReminderHours: 4 };
    let s = analyzeAlertChanges(EMPTY_ALERT_STATE, report('2025-01-01T10:00:00Z', [root, paused]), o).state;
    const reminders: string[] = [];
    for (let h = 1; h <= 9; h++) {
      const at = `2025-01-01T${String(10 + h).padStart(2, '0')}:00:00Z`;
      const r = analyzeAlertChanges(s, report(at, [root, paused]), o);
      s = r.state;
      if (r.changed.some((i) => i.changes.at(-1)!.kinds.includes('paused'))) reminders.push(at);
    }
    expect(reminders).toEqual(['2025-01-01T14:00:00Z', '2025-01-01T18:00:00Z']);
    const inc = s.incidents['fp-leader']!;
    const reply = JSON.stringify(renderAlertReply(inc, inc.changes.at(-1)!).blocks);
    expect(reply).toContain('Remediation is still paused* on MachineHealthCheck ns/mhc');
    expect(reply).toContain('*Resume remediation: mhc*');
    // Resumed: no more reminders.
    s = analyzeAlertChanges(s, report('2025-01-01T23:00:00Z', [root]), o).state;
    expect(s.incidents['fp-leader']!.pausedRemindedAt).toBeUndefined();
  });
});

describe('migrateAlertState (state stored with Slack text in its changes)', () => {
  it('drops the Slack text of old changes on read; an unposted old change gets the short reply of a change without details', () => {
    const old = {
      seq: 7,
      lastScanAt: '2025-01-01T10:00:00Z',
      incidents: {
        'fp-leader': {
          cluster: 'c1',
          fingerprint: 'fp-leader',
          key: 'fp-leader.1',
          channel: 'C0ALERTS',
          status: 'open',
          openedAt: '2025-01-01T09:00:00Z',
          lastSeenAt: '2025-01-01T10:00:00Z',
          missedScans: 0,
          finding: finding(),
          severity: 'critical',
          evidenceSeen: [],
          related: [],
          seq: 7,
          changes: [
            { seq: 1, kinds: ['opened'], at: '2025-01-01T09:00:00Z', lines: [] },
            {
              seq: 7,
              kinds: ['severity'],
              at: '2025-01-01T10:00:00Z',
              lines: [':arrow_up: Severity raised: warning → *critical*'],
            },
          ],
        },
      },
    };
    const state = migrateAlertState(JSON.parse(JSON.stringify(old)));
    expect(JSON.stringify(state)).not.toContain('Severity raised');
    expect(state.incidents['fp-leader']!.changes).toEqual([
      { seq: 1, kinds: ['opened'], at: '2025-01-01T09:00:00Z', details: [] },
      { seq: 7, kinds: ['severity'], at: '2025-01-01T10:00:00Z', details: [] },
    ]);
    expect(renderAlertReply(state.incidents['fp-leader']!, state.incidents['fp-leader']!.changes[1]!).text).toBe(
      'c1 etcd.leader-unreachable: severity',
    );
    // The next scan carries on from it (same seq counter, same thread).
    const next = run(state, '2025-01-01T10:05:00Z', [finding({ severity: 'warning' })]);
    expect(next.changed[0]!.key).toBe('fp-leader.1');
    expect(next.state.seq).toBe(8);
    expect(migrateAlertState('garbage')).toEqual(EMPTY_ALERT_STATE);
  });

  it('a state stored with one thread per finding loads, and the next scan closes symptom threads into their root cause', () => {
    const inc = (fp: string, f: Finding, seq: number) => ({
      cluster: 'c1',
      fingerprint: fp,
      key: `${fp}.${seq}`,
      channel: 'C0ALERTS',
      status: 'open',
      openedAt: '2025-01-01T09:00:00Z',
      lastSeenAt: '2025-01-01T10:00:00Z',
      missedScans: 0,
      finding: f,
      severity: f.severity,
      evidenceSeen: [],
      related: [],
      seq,
      changes: [{ seq, kinds: ['opened'], at: '2025-01-01T09:00:00Z', details: [] }],
    });
    const symptom = finding({
      id: 'capi.machine-stuck-provisioning',
      severity: 'warning',
      fingerprint: 'fp-machine',
      title: 'Machine stuck',
      causedBy: ['fp-leader'],
      subject: { kind: 'Machine', name: 'x' },
    });
    const old = {
      seq: 2,
      lastScanAt: '2025-01-01T10:00:00Z',
      incidents: { 'fp-leader': inc('fp-leader', finding(), 1), 'fp-machine': inc('fp-machine', symptom, 2) },
    };
    const state = migrateAlertState(JSON.parse(JSON.stringify(old)));
    expect(state.incidents['fp-leader']!.symptoms).toEqual([]);
    const next = run(state, '2025-01-01T10:05:00Z', [finding(), symptom]);
    // Nothing stored is lost: the root keeps its thread (same key) and lists the symptom; the symptom's thread is
    // closed into it.
    expect(next.state.incidents['fp-leader']!.key).toBe('fp-leader.1');
    expect(next.state.incidents['fp-leader']!.symptoms!.map((x) => x.fingerprint)).toEqual(['fp-machine']);
    expect(next.state.incidents['fp-machine']!.status).toBe('resolved');
    expect(next.state.incidents['fp-machine']!.changes.at(-1)!.kinds).toEqual(['merged']);
    expect(Object.values(next.state.incidents).filter((i) => i.status === 'open')).toHaveLength(1);
  });
});
