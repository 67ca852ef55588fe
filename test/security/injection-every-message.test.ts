import { describe, expect, it } from '@jest/globals';
import { renderBackup } from '../../src/slack/render/render-backup.js';
import { parseConfig } from '../../src/config/load-config.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { analyzeAlertChanges } from '../../src/alerts/analyze-alert-changes.js';
import type { ApprovalRequest, ApprovalStatus } from '../../src/approvals/approval-request.js';
import type { RemediationPlan } from '../../src/approvals/remediation-plan.js';
import { proposalKey, renderBlocks } from '../../src/slack/render/render-blocks.js';
import { renderDetails } from '../../src/slack/render/render-details.js';
import { renderText } from '../../src/report/render-text.js';
import type { Report } from '../../src/report/report.js';
import { clampBlocks, type SlackMessage } from '../../src/slack/render/clamp-blocks.js';
import { parseCommand } from '../../src/slack/receive/parse-command.js';
import { renderAlertParent, renderAlertReply } from '../../src/slack/render/render-alert.js';
import { renderApproval, renderPlanBlocks } from '../../src/slack/render/render-approval.js';
import { renderApprovalResult } from '../../src/slack/render/render-approval-result.js';
import { renderScanFailed, renderScanning } from '../../src/slack/render/render-scanning.js';
import { renderAppHome } from '../../src/slack/render/render-app-home.js';
import { renderClusterList } from '../../src/slack/render/render-cluster-list.js';
import { FORGED, HOSTILE_ALL, HOSTILE_TEXTS } from '../support/hostile-text.js';
import { findInjections, linesOf } from '../support/inspect-slack-text.js';

/**
 * Every kind of message the bot renders, with a hostile value in every field that
 * did not come from our own code (test/support/hostile-text.ts: mentions, links, bare URLs and
 * @-words, markers, code fences, forged lines behind every kind of line break, bidi, zero-width,
 * ANSI and control characters, 5 000-character values). The produced mrkdwn is parsed
 * (test/support/inspect-slack-text.ts): no `<` outside our own mentions and dates, balanced ```, no
 * line that starts with the forged marker, no control/bidi character, no live mention word or URL
 * scheme, verbatim mrkdwn — and each hostile value sits on the line of the label it belongs to.
 */

const NOW = new Date('2025-03-01T10:00:00Z');
const T0 = '2025-03-01T09:00:00Z';
const T1 = '2025-03-01T09:05:00Z';
const T2 = '2025-03-01T09:10:00Z';

/** A finding whose every free-text field is `h` (ids and enums stay ours: they come from the code). */
function hostileFinding(h: string, n: number, extra: Partial<Finding> = {}): Finding {
  return {
    id: 'webhook.unavailable-blocking',
    severity: 'critical',
    section: 'webhooks',
    title: h,
    subject: { kind: h, namespace: h, name: h },
    evidence: [h, `quoted ${h}`, h],
    cause: h,
    since: h,
    missing: [h],
    confidence: 'medium',
    remediations: [
      { action: 'deployment.scale', params: { namespace: h, name: h, replicas: 0 }, label: h, risk: h },
      { action: 'webhook.suspend', params: { kind: 'Validating', name: h }, label: `Suspend ${h}`, risk: h },
      // An etcd member named and numbered by the cluster: the text fix line shows memberId (in hex when it is a
      // number).
      { action: 'etcd.remove-member', params: { memberId: h }, label: `Remove stale etcd member ${h}`, risk: h },
    ],
    // Steps for a person (etcd.alarm), built from member names and alarm text; ids are JSON-only.
    steps: [h, `then ${h}`],
    ids: { memberId: h },
    fingerprint: `fp-${n}`,
    ...extra,
  };
}

function hostileReport(
  h: string,
  findings: Finding[] = [hostileFinding(h, 0)],
  at = T0,
  time: Pick<Report, 'collectedAtFrom'> = {},
): Report {
  return {
    cluster: h,
    generatedAt: T0,
    collectedAt: at,
    ...time,
    status: 'critical',
    sections: [
      { id: 'webhooks', status: 'critical', summary: h },
      { id: 'nodes', status: 'degraded', summary: h },
    ],
    findings,
    partial: [
      { source: h, error: h },
      { source: 'etcd', error: HOSTILE_ALL },
    ],
  };
}

function hostilePlan(h: string): RemediationPlan {
  return {
    action: 'deployment.scale',
    cluster: h,
    params: { namespace: h, name: h, replicas: 0 },
    label: h,
    apiCalls: [`PATCH /apis/apps/v1/namespaces/${h}/deployments/${h}`, h],
    preconditions: [{ id: 'replicas-unchanged', text: h, recorded: h }],
    risk: h,
  };
}

const STATUSES: ApprovalStatus[] = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'aborted',
  'interrupted',
  'rejected',
  'cancelled',
  'expired',
];

function hostileRequest(h: string, status: ApprovalStatus, tampered: boolean): ApprovalRequest {
  // `tampered`: what someone with write access to Redis could store: user ids that are
  // markup, an expiry that is not a date, a hash and id that are text.
  const user = (ok: string) => (tampered ? `${ok}> <!channel` : ok);
  return {
    id: tampered ? `r_${h}` : 'r_Ab-_9z',
    cluster: h,
    plan: hostilePlan(h),
    hash: tampered ? h : 'a'.repeat(64),
    proposer: user('U0PAT'),
    createdAt: T0,
    expiresAt: tampered ? h : '2025-03-01T10:30:00.000Z',
    required: 2,
    status,
    approvals: [{ user: user('U0ANN'), at: T1 }],
    approvers: tampered
      ? ({ users: [user('U0ALICE'), '<!here>'], groups: 'S0SRE> <!channel' } as unknown as ApprovalRequest['approvers'])
      : { users: ['U0ALICE'], groups: ['S0SRE', 'not a group'] },
    ...(status === 'rejected' || status === 'cancelled' ? { decidedBy: { user: user('U0BEN'), at: T1 } } : {}),
    dryRun: `:x: dry run failed: ${h}`,
    thread: { channel: 'C0INCIDENT', threadTs: '1.1', messageTs: '1.2' },
    ...(status === 'pending' || status === 'approved' ? {} : { result: `failed: ${h}` }),
    transitions: [{ status: 'pending', at: T0 }],
  };
}

const OUR_MENTIONS = ['U0PAT', 'U0ANN', 'U0BEN', 'U0ALICE'];

/** The whole check for one message: nothing got through, and no line starts with what the attacker wrote. */
function expectInert(message: { text?: unknown; blocks?: unknown }, what: string): void {
  const problems = findInjections(message, { mentions: OUR_MENTIONS, groups: ['S0SRE'] });
  expect({ what, problems }).toEqual({ what, problems: [] });
  for (const line of linesOf(message)) {
    // Lines an attacker would like to forge: ours start with a label, never with these.
    expect({ what, line: line.slice(0, 60) }).not.toEqual({
      what,
      line: expect.stringMatching(/^\s*(Approved by|:white_check_mark: \*Approved\*)/),
    });
  }
}

/**
 * Lines that start with `label` each carry the hostile marker: the value stayed on its line. `count`
 * of them, or fewer when the message had to be shortened to Slack's limits (5 000-character values).
 */
function expectOnItsLine(message: SlackMessage, label: string, count: number): void {
  const lines = linesOf(message).filter((l) => l.startsWith(label));
  const shortened =
    JSON.stringify(message.blocks).includes("message shortened to fit Slack's limits") ||
    linesOf(message).some((l) => l.length > 300);
  if (shortened) expect(lines.length).toBeLessThanOrEqual(count);
  else expect(lines).toHaveLength(count);
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) expect(l).toMatch(/HOSTILE-/);
}

describe('every message kind with a hostile value in every untrusted field', () => {
  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))(
    'health answer, section view and fixes as text (corpus #%i)',
    (i, h) => {
      const f = hostileFinding(h, i);
      const report = hostileReport(h, [
        f,
        hostileFinding(h, 100 + i, { causedBy: [f.fingerprint], severity: 'warning' }),
      ]);
      const withButtons = renderBlocks(report, {
        now: NOW,
        stale: true,
        note: `:x: Fresh scan failed (${h}); this is the last stored report.`,
        proposalIds: { [proposalKey(f, 0)]: 'p_1', [proposalKey(f, 1)]: 'p_2' },
      });
      expectInert(withButtons, 'health answer');
      // The card: the root cause's since on its headline's line (its why is its title here, said once); the symptom is
      // only counted.
      expect(linesOf(withButtons).filter((l) => l.includes(' · since: unknown'))).toHaveLength(1);
      expect(linesOf(withButtons).filter((l) => l === '+1 symptom in Details')).toHaveLength(1);
      // Details: the evidence of the cause and the first of its symptom, each on its line.
      const details = renderDetails(report, {
        stale: true,
        note: `:x: Fresh scan failed (${h}); this is the last stored report.`,
      });
      expectInert(details, 'details');
      expectOnItsLine(details, '> HOSTILE-', 2);
      expect(linesOf(details).filter((l) => l.startsWith('> quoted HOSTILE-'))).toHaveLength(1);
      // The symptom's first evidence line, under its bullet.
      expectOnItsLine(details, '  HOSTILE-', 1);
      expectInert(renderBlocks(report, { now: NOW, section: 'webhooks' }), 'section view');
      expectInert(renderDetails(report, { section: 'webhooks' }), 'section details');
      expectInert(renderBlocks(report, { now: NOW, section: 'etcd' }), 'empty section view');
    },
  );

  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))(
    'etcd findings: hand-run steps, member names and ids in evidence and fixes (corpus #%i)',
    (i, h) => {
      // Only the etcd-specific fields are hostile here, so the section is not shortened before the steps.
      const f: Finding = {
        id: 'etcd.alarm',
        severity: 'critical',
        section: 'etcd',
        title: 'etcd alarm NOSPACE',
        subject: { kind: 'EtcdMember', name: 'infra1' },
        evidence: [`alarm list: memberID:${h} alarm:NOSPACE`],
        missing: [`${h} not queried`],
        confidence: 'medium',
        remediations: [
          { action: 'etcd.remove-member', params: { memberId: h }, label: `Remove stale etcd member ${h}`, risk: 'r' },
        ],
        steps: [h, `then ${h}`],
        ids: { alarmMemberIds: h },
        fingerprint: `fp-etcd-${i}`,
      };
      const report = hostileReport('prod-east', [f]);
      expectInert(renderBlocks(report, { now: NOW }), 'etcd finding');
      const message = renderDetails(report, {});
      expectInert(message, 'etcd finding details');
      expectOnItsLine(message, '1. HOSTILE-', 1);
      expectOnItsLine(message, '2. then HOSTILE-', 1);
      expectOnItsLine(message, 'Confidence: medium — missing: HOSTILE-', 1);
      expectInert(
        renderBlocks(report, { now: NOW, proposalIds: { [proposalKey(f, 0)]: 'p_1' } }),
        'etcd finding with its fix button',
      );
    },
  );

  it('the terminal report (check --output text): no escape, control or bidi character, no forged line', () => {
    for (const h of [...HOSTILE_TEXTS, HOSTILE_ALL]) {
      const out = renderText(hostileReport(h), { now: NOW });
      expect(out).not.toMatch(/[\p{Cf}\p{Cs}]|[^\P{Cc}\n]/u);
      for (const line of out.split('\n')) expect(line.trimStart().startsWith(FORGED)).toBe(false);
      expect(out.split('\n').filter((l) => l.startsWith('    cause: '))).toEqual([
        expect.stringMatching(/^ {4}cause: HOSTILE-/),
      ]);
      // Steps and the etcd fix line (memberId through formatMemberId) stay on their own lines.
      expect(out.split('\n').filter((l) => /^ {6}[12]\. /.test(l))).toEqual([
        expect.stringMatching(/^ {6}1\. HOSTILE-/),
        expect.stringMatching(/^ {6}2\. then HOSTILE-/),
      ]);
      expect(out.split('\n').filter((l) => l.includes('etcd.remove-member'))).toEqual([
        expect.stringMatching(
          /^ {4}fix \(needs 2 approvals\): Remove stale etcd member HOSTILE-.* \[etcd\.remove-member memberId=HOSTILE-/,
        ),
      ]);
    }
  });

  /**
   * A capture time an attacker wrote into meta.json, or into the newest timestamp of the data, that still parses as a
   * date.
   */
  const hostileTimes = () =>
    // V8's Date.parse skips a parenthesized comment, line breaks included: the hostile part survives parsing.
    [...HOSTILE_TEXTS, HOSTILE_ALL].map(
      (h) => `1 Mar 2025 (${h.replace(/^HOSTILE-(\d+|ALL) /, '').replace(/[()]/g, '')})`,
    );

  it('a hostile capture time that parses as a date (recorded, or inferred from the data): inert in Slack and in the terminal', () => {
    for (const at of hostileTimes()) {
      expect(Number.isFinite(Date.parse(at))).toBe(true);
      for (const collectedAtFrom of [undefined, 'data'] as const) {
        const report = hostileReport('prod-east', [], at, collectedAtFrom ? { collectedAtFrom } : {});
        const blocks = renderBlocks(report, { now: NOW });
        expectInert(blocks, `capture time ${collectedAtFrom ?? 'recorded'}`);
        // The time is shown as a date token built from the parsed number, on the header's context line
        // only; none of the text written around it survives.
        const asOf = linesOf(blocks).filter((l) => l.includes(' · data '));
        expect(asOf).toEqual([
          expect.stringMatching(
            collectedAtFrom
              ? /· data as of \(newest timestamp in it\) <!date\^\d+\^/
              : /· data collected <!date\^\d+\^/,
          ),
        ]);
        expect(JSON.stringify(blocks.blocks)).not.toContain('HOSTILE');
        const out = renderText(report, { now: NOW });
        expect(out).not.toMatch(/[\p{Cf}\p{Cs}]|[^\P{Cc}\n]/u);
        for (const line of out.split('\n')) expect(line.trimStart().startsWith(FORGED)).toBe(false);
        expect(out.split('\n')[0]).toMatch(
          collectedAtFrom
            ? /^prod-east: CRITICAL {2}\(capture time inferred from the newest timestamp in the data: 1 Mar 2025 /
            : /^prod-east: CRITICAL {2}\(data collected 1 Mar 2025 /,
        );
      }
    }
  });

  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))('alert parent, replies and resolution (corpus #%i)', (i, h) => {
    const root = hostileFinding(h, 0, { severity: 'warning' });
    const opts = { channel: 'C0ALERTS', resolveAfterScans: 1, flapWindowMinutes: 30 };
    const first = analyzeAlertChanges({ seq: 0, incidents: {} }, hostileReport('prod-east', [root], T0), opts);
    // Next scan: the same finding, now critical, with new hostile evidence and a related hostile finding.
    const related = hostileFinding(`${h} related`, 1, { causedBy: [root.fingerprint] });
    const second = analyzeAlertChanges(
      first.state,
      hostileReport(
        'prod-east',
        [{ ...root, severity: 'critical', evidence: [...root.evidence, `new ${h}`, HOSTILE_ALL] }, related],
        T1,
      ),
      opts,
    );
    const third = analyzeAlertChanges(second.state, hostileReport('prod-east', [], T2), opts);
    const inc = second.state.incidents[root.fingerprint]!;
    expectInert(
      renderAlertParent(first.state.incidents[root.fingerprint]!, { proposalIds: { [proposalKey(root, 0)]: 'p_1' } }),
      'alert parent',
    );
    expectInert(renderAlertParent({ ...inc, cluster: h }), 'alert parent, hostile cluster name');
    const change = inc.changes.at(-1)!;
    expect(change.kinds).toEqual(expect.arrayContaining(['severity', 'evidence', 'related']));
    const reply = renderAlertReply(inc, change);
    expectInert(reply, 'alert reply');
    expectOnItsLine(reply, '> new HOSTILE-', 1);
    expectOnItsLine(reply, ':link: New symptom of this root cause:', 1);
    const resolved = third.state.incidents[root.fingerprint]!;
    expect(resolved.status).toBe('resolved');
    expectInert(renderAlertReply(resolved, resolved.changes.at(-1)!), 'resolution reply');
    expectInert(renderAlertParent(resolved), 'resolved parent');
  });

  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))(
    'approval request in every state, stored as proposed or tampered with in Redis (corpus #%i)',
    (i, h) => {
      for (const status of STATUSES) {
        for (const tampered of [false, true]) {
          const message = renderApproval(hostileRequest(h, status, tampered));
          expectInert(message, `approval ${status}${tampered ? ' tampered' : ''}`);
          expectOnItsLine(message, '*Dry run:*', 1);
          expectOnItsLine(message, '*Risk:*', 1);
          expectOnItsLine(message, '*What:*', 1);
          if (!tampered) expect(JSON.stringify(message.blocks)).toContain('<@U0PAT>');
        }
      }
      // As handle-propose-fix.ts sends it: the preview blocks behind one line, clamped.
      expectInert(clampBlocks({ text: 'Not proposed', blocks: renderPlanBlocks(hostilePlan(h)) }), 'refusal preview');
    },
  );

  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))(
    'approval result, remediation result with its backup and undo button (corpus #%i)',
    (i, h) => {
      const backupObject = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: h, annotations: { note: h, fence: '```' } },
        webhooks: [{ name: h, clientConfig: { url: 'https://evil.example/hook' } }],
      };
      for (const status of ['succeeded', 'failed', 'aborted', 'interrupted'] as const) {
        const message = renderApprovalResult(hostileRequest(h, status, false), {
          backup: { what: h, json: JSON.stringify(backupObject, null, 2) },
          undo: { label: h, proposalId: 'p_undo' },
        });
        expectInert(message, `result ${status}`);
      }
      // "Show backup": the object in its code block, to the clicker.
      const shown = renderBackup(
        { what: h, object: backupObject as never, savedAt: '2025-03-01T10:00:00Z' },
        'r_Ab-_9z',
      );
      expectInert(shown, 'backup shown');
      expect(JSON.stringify(shown.blocks)).toContain('```'); // the code block is there, and balanced (checked above)
    },
  );

  it.each(HOSTILE_TEXTS.map((h, i) => [i, h] as const))(
    'scanning, scan-failed and command errors (corpus #%i)',
    (i, h) => {
      expectInert(renderScanning(h, 'nodes'), 'scanning');
      expectInert(renderScanFailed(h, h), 'scan failed');
      const config = parseConfig(
        { clusters: [{ name: 'prod-east', dump: './x', slack: { channels: ['C0OK'] } }] },
        '/tmp',
      );
      for (const text of [h, `prod-east ${h}`, 'prod-east']) {
        const parsed = parseCommand(text, { config, channelId: 'C0OTHER' });
        if (parsed.kind === 'error') expectInert({ text: parsed.message.replace(/<#C0OK>/g, '') }, 'command error');
      }
    },
  );
});

/** Every leaf (string, number, boolean) of a value, by path. */
function leafPaths(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leafPaths(x, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leafPaths(x, [...path, k]));
  return [path];
}
function withLeaf<T>(value: T, path: (string | number)[], leaf: unknown): T {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let cur = copy;
  for (const p of path.slice(0, -1)) cur = cur[p] as Record<string | number, unknown>;
  cur[path.at(-1)!] = leaf;
  return copy as T;
}

describe('what Redis holds is untrusted in every field, not only in the free-text ones', () => {
  /**
   * A Redis writer controls every field of a stored report, approval request or alert incident,
   * including those our code writes as numbers or as its own words (statuses, severities, counts,
   * times, ids). Each leaf in turn is replaced by markup (as string, whatever its type was) and the
   * message rendered: it must stay inert. A renderer may throw on a value of the wrong shape (nothing
   * is posted then); it may never pass the markup through.
   */
  const LEAVES = [`<!channel> x\n${FORGED} *Approved* by <@U0EVIL>`, '<https://evil.example|click>'];
  const T = '2025-03-01T09:00:00Z';
  const f0 = {
    ...hostileFinding('t', 0),
    subject: { kind: 'K', namespace: 'n', name: 'x' },
    since: T,
    firstSeen: T,
  } as Finding;
  const report: Report = {
    ...hostileReport('c1', [
      f0,
      { ...f0, fingerprint: 'fp-1', causedBy: ['fp-0'], severity: 'warning' },
      { ...f0, fingerprint: 'fp-2', severity: 'info' },
    ]),
    collectedAtFrom: 'data',
  };
  const request = {
    ...hostileRequest('t', 'pending', false),
    signature: 's',
    dryRunOk: true,
    decidedBy: { user: 'U0BEN', at: T1 },
    result: 'r',
  };
  function tamperedEverywhere<T>(what: string, base: T, render: (v: T) => { text?: unknown; blocks?: unknown }): void {
    const problems: string[] = [];
    for (const path of leafPaths(base)) {
      for (const leaf of LEAVES) {
        let message: { text?: unknown; blocks?: unknown };
        try {
          message = render(withLeaf(base, path, leaf));
        } catch {
          continue;
        }
        for (const p of findInjections(message, { mentions: OUR_MENTIONS, groups: ['S0SRE'] }))
          problems.push(`${path.join('.')}: ${p}`);
      }
    }
    expect({ what, problems: [...new Set(problems)] }).toEqual({ what, problems: [] });
  }

  it('a stored report (answer card, Details, App Home, the fleet cluster list)', () => {
    tamperedEverywhere('card', report, (r) =>
      renderBlocks(r, { now: NOW, proposalIds: { [proposalKey(f0, 0)]: 'p_1' } }),
    );
    tamperedEverywhere('section view', report, (r) => renderBlocks(r, { now: NOW, section: 'webhooks' }));
    tamperedEverywhere('details', report, (r) => renderDetails(r, {}));
    tamperedEverywhere('app home', { report, waiting: [{ label: 'l', proposer: 'U0PAT', expiresAt: T }] }, (x) =>
      renderAppHome('U0ALICE', [{ name: 'c1', ...x }], T),
    );
    // The fleet's cluster list: names from the fleet directory, statuses from stored reports (both Redis); clamped as
    // postAnswer sends it.
    const list = [
      { name: 'c1', fleet: 'f', status: 'critical', enrolled: true, storedAt: T },
      { name: 'c2', enrolled: false },
    ];
    tamperedEverywhere('cluster list', list, (l) => clampBlocks(renderClusterList(l)));
  });

  it('a stored approval request in each state (request message, result)', () => {
    for (const status of STATUSES) {
      tamperedEverywhere(`approval ${status}`, { ...request, status }, (r) => renderApproval(r));
      tamperedEverywhere(`result ${status}`, { ...request, status }, (r) =>
        renderApprovalResult(r, { backup: { what: 'w', json: '{}' }, undo: { label: 'u', proposalId: 'p_u' } }),
      );
    }
  });

  it('a stored alert incident and its changes (parent, every kind of reply)', () => {
    const opts = { channel: 'C0ALERTS', resolveAfterScans: 1, flapWindowMinutes: 30 };
    const inc = analyzeAlertChanges({ seq: 0, incidents: {} }, hostileReport('c1', [f0], T0), opts).state.incidents[
      f0.fingerprint
    ]!;
    tamperedEverywhere('parent', inc, (i) =>
      renderAlertParent(i, {
        proposalIds: { [proposalKey(f0, 0)]: 'p_1' },
        owner: { user: 'U0ANN', at: T0 },
        snooze: { by: 'U0BEN', until: T1 },
      }),
    );
    tamperedEverywhere(
      'resolved parent',
      { ...inc, status: 'resolved' as const, resolvedAt: T1, mergedInto: 'fp-9' },
      (i) => renderAlertParent(i),
    );
    const details = [
      { kind: 'reopened', resolvedForMs: 5 },
      { kind: 'severity', from: 'warning', to: 'critical' },
      { kind: 'recreation', from: 1, to: 2 },
      { kind: 'evidence', lines: ['a'], more: 2 },
      {
        kind: 'related',
        findings: [
          { fingerprint: 'f', id: 'i', title: 't', severity: 'warning', relation: 'symptom', since: T0 },
          { fingerprint: 'f', id: 'i', title: 't', severity: 'warning', relation: 'cause' },
        ],
      },
      { kind: 'resolved', missedScans: 2, lastSeenAt: T0, lastedMs: 5 },
      { kind: 'resolved', missedScans: 2, lastSeenAt: T0, lastedMs: 5, reason: 'cluster-renamed', renamedTo: 'x' },
      { kind: 'merged', into: 'x', id: 'i', title: 't' },
      { kind: 'paused', mhc: 'm', since: T0, resume: 'r' },
    ];
    tamperedEverywhere('reply', { inc, change: { seq: 1, kinds: ['evidence'], at: T1, details } }, (x) =>
      renderAlertReply(x.inc, x.change as Parameters<typeof renderAlertReply>[1]),
    );
  });

  it('cluster names and channel ids of the fleet directory (Redis) in command errors', () => {
    // Discovered clusters reach the config through the fleet directory in Redis (docs/fleet.md); config names are
    // validated, these are not.
    const config = parseConfig(
      {
        clusters: [
          { name: 'a', dump: './x', slack: { channels: ['C0OK'] } },
          { name: 'b', dump: './x', slack: { channels: ['C0OK'] } },
        ],
      },
      '/tmp',
    );
    for (const h of [...HOSTILE_TEXTS, HOSTILE_ALL]) {
      config.clusters[0]!.name = h;
      config.clusters[1]!.slack.channels = ['C0OK', h];
      for (const [text, channel] of [
        ['', 'C0OK'],
        [h, 'C0OTHER'],
        ['b', 'C0OTHER'],
      ] as const) {
        const parsed = parseCommand(text, { config, channelId: channel });
        if (parsed.kind === 'error')
          expectInert({ text: parsed.message.replace(/<#C0OK>/g, '') }, `command error for ${JSON.stringify(text)}`);
      }
    }
  });
});
