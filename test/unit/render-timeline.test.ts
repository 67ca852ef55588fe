import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/diagnose/finding.js';
import { escapeMarkdown } from '../../src/text/escape-markdown.js';
import { renderTimeline } from '../../src/timeline/render-timeline.js';
import type { Incident } from '../../src/alerts/incident.js';

const finding = (title: string): Finding => ({
  id: 'capi.drain-blocked',
  severity: 'warning',
  section: 'machines',
  title,
  confidence: 'high',
  fingerprint: 'fp1',
  subject: { kind: 'Machine', namespace: 'clusters', name: 'md-0-x' },
  evidence: [],
  remediations: [],
});
const incident = (title: string): Incident => ({
  cluster: 'shop-prod',
  fingerprint: 'fp1',
  key: 'fp1.1',
  channel: 'C0ALERTS',
  status: 'resolved',
  openedAt: '2025-03-04T10:30:00Z',
  lastSeenAt: '2025-03-04T10:40:00Z',
  resolvedAt: '2025-03-04T11:00:00Z',
  missedScans: 3,
  finding: finding(title),
  severity: 'warning',
  evidenceSeen: [],
  related: [],
  seq: 3,
  changes: [
    { seq: 1, kinds: ['opened'], at: '2025-03-04T10:30:00Z', details: [] },
    {
      seq: 2,
      kinds: ['severity'],
      at: '2025-03-04T10:35:00Z',
      details: [{ kind: 'severity', from: 'info', to: 'warning' }],
    },
    {
      seq: 3,
      kinds: ['resolved'],
      at: '2025-03-04T11:00:00Z',
      details: [{ kind: 'resolved', missedScans: 3, lastSeenAt: '2025-03-04T10:45:00Z', lastedMs: 900_000 }],
    },
  ],
});

describe('escapeMarkdown: untrusted text made inert for a Markdown document', () => {
  it('escapes links, images, HTML, code, emphasis, table pipes and mentions; flattens newlines; drops control and bidi characters; bounds length', () => {
    expect(
      escapeMarkdown('[x](http://evil) ![i](http://e/i.png) <img src=x onerror=alert(1)> `rm -rf` *b* _i_ a|b @here'),
    ).toBe(
      '\\[x\\](`http://evil`) \\!\\[i\\](`http://e/i.png`) \\<img src=x onerror=alert(1)\\> \\`rm -rf\\` \\*b\\* \\_i\\_ a\\|b \\@here',
    );
    expect(escapeMarkdown('line1\n# heading\r\n| cell')).toBe('line1 \\# heading \\| cell');
    expect(escapeMarkdown('a\u0000b\u202ec\u0007d')).toBe('abcd');
    expect(escapeMarkdown('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('renderTimeline', () => {
  it('renders findings, a chronological table (opened, changed, what changed, fixes, resolved) and the latest change list', () => {
    const md = renderTimeline({
      cluster: 'shop-prod',
      generatedAt: '2025-03-04T12:00:00Z',
      incidents: [incident('Machine clusters/md-0-x cannot be deleted: drain refused by PodDisruptionBudget shop/db')],
      changes: [
        {
          at: '2025-03-04T10:30:00Z',
          baselineAt: '2025-03-04T09:00:00Z',
          changes: [
            {
              kind: 'PodDisruptionBudget',
              namespace: 'shop',
              name: 'db',
              change: 'added',
              detail: 'added',
              rank: 0,
              why: 'named by capi.drain-blocked',
            },
          ],
        },
      ],
      audit: [
        {
          at: '2025-03-04T10:41:00Z',
          cluster: 'shop-prod',
          requestId: 'r1',
          event: 'proposed',
          action: 'machine.skip-drain',
          user: 'U0PAT',
          detail: 'Skip drain: md-0-x',
        },
        {
          at: '2025-03-04T10:43:00Z',
          cluster: 'shop-prod',
          requestId: 'r1',
          event: 'approved',
          action: 'machine.skip-drain',
          user: 'U0ANN',
        },
        {
          at: '2025-03-04T10:44:00Z',
          cluster: 'shop-prod',
          requestId: 'r1',
          event: 'succeeded',
          action: 'machine.skip-drain',
          detail: 'done and verified',
        },
        {
          at: '2025-03-04T10:44:00Z',
          cluster: 'other',
          requestId: 'r9',
          event: 'proposed',
          action: 'node.delete',
          user: 'U0X',
        },
      ],
    });
    expect(md).toContain('# Incident timeline: shop-prod');
    expect(md).toContain(
      '| `capi.drain-blocked` Machine clusters/md-0-x cannot be deleted: drain refused by PodDisruptionBudget shop/db | warning | Machine clusters/md-0-x | 2025-03-04T10:30:00Z | 2025-03-04T10:40:00Z | 2025-03-04T11:00:00Z |',
    );
    const rows = md.split('\n').filter((l) => /^\| 2025-/.test(l));
    expect(rows).toEqual([
      '| 2025-03-04T10:30:00Z | **what changed** since last healthy at 2025-03-04T09:00:00Z: 1 change — PodDisruptionBudget shop/db: added (on the failing path) |',
      '| 2025-03-04T10:30:00Z | **opened** `capi.drain-blocked` (warning) on Machine clusters/md-0-x: Machine clusters/md-0-x cannot be deleted: drain refused by PodDisruptionBudget shop/db |',
      '| 2025-03-04T10:35:00Z | **changed** `capi.drain-blocked` on Machine clusters/md-0-x (severity): Severity raised: info → warning |',
      '| 2025-03-04T10:41:00Z | **proposed** `machine.skip-drain` by U0PAT (request r1) — Skip drain: md-0-x |',
      '| 2025-03-04T10:43:00Z | **approved** `machine.skip-drain` by U0ANN (request r1) |',
      '| 2025-03-04T10:44:00Z | **succeeded** `machine.skip-drain` (request r1) — done and verified |',
      '| 2025-03-04T11:00:00Z | **resolved** `capi.drain-blocked` on Machine clusters/md-0-x |',
    ]);
    expect(md).toContain(
      '## What changed since last healthy (2025-03-04T09:00:00Z → 2025-03-04T10:30:00Z)\n\n- on the failing path: PodDisruptionBudget shop/db: added — named by capi.drain-blocked',
    );
    expect(md).not.toContain('node.delete');
  });

  it('neutralizes text from the cluster and from users, and --since leaves older rows out', () => {
    const md = renderTimeline({
      cluster: 'shop-prod',
      generatedAt: '2025-03-04T12:00:00Z',
      since: '2025-03-04T10:42:00Z',
      incidents: [incident('drain of node x | <script>alert(1)</script> [click](http://evil)\n# pwned')],
      changes: [],
      audit: [
        {
          at: '2025-03-04T10:43:00Z',
          cluster: 'shop-prod',
          requestId: 'r1',
          event: 'failed',
          action: 'machine.skip-drain',
          detail: 'Forbidden: `patch` <b>|</b>\n## x',
        },
      ],
    });
    expect(md).toContain('drain of node x \\| \\<script\\>alert(1)\\</script\\> \\[click\\](`http://evil`) \\# pwned');
    expect(md).toContain(
      '| 2025-03-04T10:43:00Z | **failed** `machine.skip-drain` (request r1) — Forbidden: \\`patch\\` \\<b\\>\\|\\</b\\> \\#\\# x |',
    );
    expect(md).not.toContain('**opened**');
    expect(md).toContain('**resolved**');
    // No raw line break or unescaped pipe can come from the data: every table row keeps its cells.
    for (const row of md.split('\n').filter((l) => l.startsWith('| 2025-')))
      expect(row.split(/(?<!\\)\|/).length).toBe(4);
  });
});
