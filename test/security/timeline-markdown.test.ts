import { describe, expect, it } from '@jest/globals';
import { marked, type Token } from 'marked';
import type { Incident } from '../../src/alerts/incident.js';
import type { AuditEvent } from '../../src/store/audit-log.js';
import type { ChangeRecord } from '../../src/store/baseline-store.js';
import { renderTimeline } from '../../src/timeline/render-timeline.js';
import { HOSTILE_ALL } from '../support/hostile-text.js';

/** Markdown an attacker would put in a postmortem: headings, HTML, images, links, bare URLs, table breakers. */
const EVIL =
  '# pwned | <img src=https://evil.example/x.png> ![i](https://evil.example/i.png) [approve](https://evil.example/a) https://evil.example/bare www.evil.example mailto:boss@evil.example';
const evil = (tag: string) => `${tag} ${EVIL}\n## forged heading\n| forged | row |`;

/** Every field of a stored record set to hostile text, typed or not (Redis holds what a writer put there). */
function hostileInput() {
  const at = '2025-03-04T10:30:00Z';
  const incident = {
    cluster: 'c',
    fingerprint: 'fp',
    key: 'fp.1',
    channel: 'C0',
    status: 'open',
    openedAt: at,
    lastSeenAt: at,
    missedScans: 0,
    evidenceSeen: [],
    related: [],
    seq: 2,
    severity: evil('severity'),
    finding: {
      id: evil('id'),
      severity: evil('fseverity'),
      section: 'machines',
      title: evil('title'),
      confidence: 'high',
      fingerprint: 'fp',
      subject: { kind: evil('kind'), namespace: evil('ns'), name: evil('name') },
      evidence: [],
      remediations: [],
    },
    changes: [
      { seq: 1, kinds: ['opened'], at, details: [] },
      {
        seq: 2,
        kinds: ['evidence', evil('kinds')],
        at,
        details: [
          { kind: 'evidence', lines: [evil('line')], more: 0 },
          { kind: 'severity', from: evil('from'), to: 'warning' },
        ],
      },
    ],
  } as unknown as Incident;
  const change = {
    at,
    baselineAt: evil('baseline'),
    more: evil('more'),
    changes: [
      {
        kind: evil('ckind'),
        namespace: evil('cns'),
        name: evil('cname'),
        change: 'added',
        detail: evil('detail'),
        rank: evil('rank'),
        why: HOSTILE_ALL,
      },
    ],
  } as unknown as ChangeRecord;
  const audit = {
    at,
    cluster: 'c',
    requestId: evil('req'),
    event: evil('event'),
    action: evil('action'),
    user: evil('user'),
    detail: evil('adetail'),
  } as unknown as AuditEvent;
  return { cluster: 'c', generatedAt: at, incidents: [incident], changes: [change], audit: [audit] };
}

function walk(tokens: Token[], seen: Token[] = []): Token[] {
  for (const t of tokens) {
    seen.push(t);
    const any = t as unknown as {
      tokens?: Token[];
      items?: Token[];
      header?: { tokens: Token[] }[];
      rows?: { tokens: Token[] }[][];
    };
    if (any.tokens) walk(any.tokens, seen);
    if (any.items) walk(any.items, seen);
    for (const cell of any.header ?? []) walk(cell.tokens, seen);
    for (const row of any.rows ?? []) for (const cell of row) walk(cell.tokens, seen);
  }
  return seen;
}

/**
 * The timeline export is pasted into postmortems (GitHub, wikis): parsed as GitHub-flavoured Markdown,
 * nothing in it may come from the data but text — no heading, HTML, image or link (autolinked bare URLs
 * included), and no table row broken into other cells.
 */
describe('timeline: every stored field is neutralized for Markdown', () => {
  const md = renderTimeline(hostileInput());
  const tokens = walk(marked.lexer(md, { gfm: true }));

  it('no link, image or HTML anywhere (bare URLs and www. addresses are not autolinked)', () => {
    expect(tokens.filter((t) => ['link', 'image', 'html', 'tag'].includes(t.type)).map((t) => t.raw)).toEqual([]);
    // Leaf text (a code span's text is not one): where GitHub's autolinker looks.
    for (const t of tokens.filter(
      (x) => (x.type === 'text' || x.type === 'escape') && !(x as { tokens?: unknown[] }).tokens,
    ))
      expect((t as { text: string }).text).not.toMatch(/https?:\/\/|www\./);
  });

  it('only our headings, and every table keeps its columns', () => {
    expect(
      tokens.filter((t) => t.type === 'heading').map((t) => (t as { text: string }).text.split(/[ :(]/)[0]),
    ).toEqual(['Incident', 'Findings', 'Timeline', 'What']);
    const tables = tokens.filter((t) => t.type === 'table') as unknown as { header: unknown[]; rows: unknown[][] }[];
    expect(tables.map((t) => [t.header.length, t.rows.length])).toEqual([
      [6, 1],
      [2, 4],
    ]);
  });

  it('text stays readable: a bare URL shows as code, the words as they were', () => {
    expect(md).toContain('`https://evil.example/bare`');
    expect(md).toContain('\\# pwned \\| \\<img src=`https://evil.example/x.png`\\>');
  });
});
