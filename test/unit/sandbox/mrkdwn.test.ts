import { describe, expect, it } from '@jest/globals';
// The page's mrkdwn parser is a plain ES module served to the browser (src/sandbox/page/).
// @ts-expect-error JavaScript without types
import { formatSlackDate, parseMrkdwn } from '../../../src/sandbox/page/mrkdwn.js';

type Node = {
  t: string;
  v?: string;
  c?: Node[];
  id?: string;
  ts?: number;
  format?: string;
  fallback?: string;
  url?: string;
};
const parse = (s: string) => parseMrkdwn(s) as Node[];

describe('sandbox page: mrkdwn as Slack reads it', () => {
  it('formats at word boundaries only, and never inside code', () => {
    expect(parse('*bold* a*b*c _it_ ~no~')).toEqual([
      { t: 'b', c: [{ t: 'text', v: 'bold' }] },
      { t: 'text', v: ' a*b*c ' },
      { t: 'i', c: [{ t: 'text', v: 'it' }] },
      { t: 'text', v: ' ' },
      { t: 's', c: [{ t: 'text', v: 'no' }] },
    ]);
    expect(parse('`*x*` ```\n*y*\n```')).toEqual([
      { t: 'code', v: '*x*' },
      { t: 'text', v: ' ' },
      { t: 'pre', v: '*y*\n' },
    ]);
  });

  it('reads mentions, dates and links from <…>, and leaves escaped text as text', () => {
    const nodes = parse(
      '<@U0ANN> <!date^1739786400^{date_short_pretty} {time}|2025-02-17T10:00:00Z> <https://x.example/a?b=1&amp;c=2|docs> &lt;b&gt;',
    );
    expect(nodes[0]).toEqual({ t: 'user', id: 'U0ANN', label: undefined });
    expect(nodes[2]).toEqual({
      t: 'date',
      ts: 1739786400,
      format: '{date_short_pretty} {time}',
      link: undefined,
      fallback: '2025-02-17T10:00:00Z',
    });
    expect(nodes[4]).toEqual({ t: 'link', url: 'https://x.example/a?b=1&c=2', c: [{ t: 'text', v: 'docs' }] });
    expect(nodes[5]).toEqual({ t: 'text', v: ' <b>' });
  });

  it('groups > lines into one quote', () => {
    expect(parse('> a\n> b\nc')).toEqual([
      { t: 'quote', c: [{ t: 'text', v: 'a' }, { t: 'br' }, { t: 'text', v: 'b' }] },
      { t: 'text', v: 'c' },
    ]);
  });

  it("renders date tokens in the viewer's zone, 'today' by the sandbox clock", () => {
    const now = new Date('2025-02-17T10:05:00Z');
    expect(formatSlackDate(1739786400, '{date_short_pretty} {time}', now, { timeZone: 'UTC', locale: 'en-US' })).toBe(
      'today 10:00 AM',
    );
    expect(
      formatSlackDate(1739786400, '{date_short_pretty} {time}', now, { timeZone: 'Asia/Tokyo', locale: 'en-US' }),
    ).toBe('today 7:00 PM');
    expect(
      formatSlackDate(1739786400, '{date_short_pretty}', now, { timeZone: 'America/Los_Angeles', locale: 'en-US' }),
    ).toBe('today');
    expect(formatSlackDate(1739700000, '{date_short_pretty} · {ago}', now, { timeZone: 'UTC', locale: 'en-US' })).toBe(
      'yesterday · 1 day ago',
    );
    expect(formatSlackDate(1739786400, '{date_num} {unknown}', now, { timeZone: 'UTC' })).toBe('2025-02-17 {unknown}');
  });
});
