import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  neutralizeMrkdwn,
  neutralizeMrkdwnCode,
  neutralizeMrkdwnId,
  neutralizeMrkdwnNumber,
  neutralizeMrkdwnWord,
} from '../../src/text/neutralize-mrkdwn.js';
import { LINE_BREAK_MARK, neutralizePlainText } from '../../src/text/neutralize-plain-text.js';
import { formatCliError as describeError } from '../../src/cli/format-cli-error.js';
import { FUZZ_SEED, useFuzzSeed } from '../support/fuzz-seed.js';
import { FORGED, HOSTILE_ALL, HOSTILE_TEXTS } from '../support/hostile-text.js';

useFuzzSeed();

/** Pieces an attacker combines; fast-check strings mix them with arbitrary Unicode. */
const FRAGMENTS = [
  '<',
  '>',
  '&',
  '<!channel>',
  '<!here>',
  '<@U0EVIL>',
  '<#C0EVIL>',
  '<!subteam^S0X>',
  '<https://evil.example|x>',
  'https://',
  'http://',
  '@here',
  '@channel',
  '@everyone',
  '@',
  '*',
  '_',
  '~',
  '`',
  '```',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u000b',
  '\u000c',
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u001b[31m',
  '\u001b]8;;https://evil\u0007',
  '\u009b',
  '\u0000',
  '\t',
  '\uD800',
  '\uDC00',
  '😀',
  'é',
  'a',
  ' ',
];
const hostileString = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 60 })
  .map((parts) => parts.join(''));
const anyValue = fc.oneof(hostileString, fc.anything());
const cap = fc.integer({ min: 1, max: 400 });

/** Every marker left in the output sits between two letters or digits (Slack does not format there). */
function markersInert(out: string): boolean {
  const chars = Array.from(out);
  return chars.every(
    (c, i) =>
      !'*_~'.includes(c) || (/[\p{L}\p{N}]/u.test(chars[i - 1] ?? '') && /[\p{L}\p{N}]/u.test(chars[i + 1] ?? '')),
  );
}

describe(`neutralizeMrkdwn (seed ${FUZZ_SEED})`, () => {
  it('3000 hostile strings and arbitrary values: never an active <!, <@, <#, <http…|…>, a newline, a backtick, a live marker, or more than the cap', () => {
    fc.assert(
      fc.property(anyValue, cap, (value, max) => {
        const out = neutralizeMrkdwn(value, { max });
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[<>`\n\r\u2028\u2029\u0085]/);
        expect(out).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}]/u);
        expect(out).not.toContain('://');
        expect(out).not.toMatch(/(?:^|[^\p{L}\p{N}])@/u);
        expect(markersInert(out)).toBe(true);
        // & only as the start of one of the three entities.
        expect(out.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps ordinary cluster text exactly as it is', () => {
    for (const s of [
      'node tkc-prod-md-0-7d9f8 NotReady for 12m',
      'etcd member 3319814642761637952 (10.0.0.11:2380)',
      'kube_system snake_case a*b x~y',
      'Pod default/web-0: Multi-Attach error',
      'é 😀 ünïcödé',
    ]) {
      expect(neutralizeMrkdwn(s)).toBe(s);
    }
  });

  it('shows the hostile corpus as the characters it is, on one line', () => {
    expect(neutralizeMrkdwn('<!channel> & <@U0EVIL>')).toBe('&lt;!channel&gt; &amp; &lt;＠U0EVIL&gt;');
    expect(neutralizeMrkdwn('<https://evil.example|click>')).toBe('&lt;https[:]//evil.example|click&gt;');
    expect(neutralizeMrkdwn('ping @here and @channel, mail a@b.example')).toBe(
      'ping ＠here and ＠channel, mail a@b.example',
    );
    expect(neutralizeMrkdwn('*bold* _it_ ~s~ `code` ```block```')).toBe('＊bold＊ ＿it＿ ～s～ ˋcodeˋ ˋˋˋblockˋˋˋ');
    expect(neutralizeMrkdwn(`ok\n*Cause:* ${FORGED}\r\nApproved by x`)).toBe(
      `ok${LINE_BREAK_MARK}＊Cause:＊ ${FORGED}${LINE_BREAK_MARK}Approved by x`,
    );
    expect(neutralizeMrkdwn('a\u202Eevil\u200B\u001b[31mred\u001b[0m\u0000')).toBe('aevilred');
    for (const h of [...HOSTILE_TEXTS, HOSTILE_ALL]) {
      const out = neutralizeMrkdwn(h, { max: 100_000 });
      expect(out.startsWith('HOSTILE-')).toBe(true);
      expect(out).not.toMatch(/[<\n]/);
    }
  });

  it('caps with an ellipsis, never inside an entity or a surrogate pair', () => {
    expect(neutralizeMrkdwn('x'.repeat(600))).toHaveLength(500);
    expect(neutralizeMrkdwn('abc&&&&', { max: 9 })).toBe('abc&amp;…');
    expect(neutralizeMrkdwn('abc&&&&', { max: 8 })).toBe('abc…');
    expect(neutralizeMrkdwn('ab😀😀', { max: 4 })).toBe('ab…');
    expect(neutralizeMrkdwn('short', { max: 5 })).toBe('short');
  });

  it('coerces any value without throwing', () => {
    expect(neutralizeMrkdwn(undefined)).toBe('');
    expect(neutralizeMrkdwn(null)).toBe('');
    expect(neutralizeMrkdwn(42)).toBe('42');
    expect(neutralizeMrkdwn({ toString: () => '<!here>' })).toBe('&lt;!here&gt;');
  });
});

describe(`neutralizeMrkdwnCode (seed ${FUZZ_SEED})`, () => {
  it('2000 hostile strings: no backtick (the block cannot be closed), no <, no control/bidi character but \\n, within the cap', () => {
    fc.assert(
      fc.property(anyValue, fc.integer({ min: 1, max: 3000 }), (value, max) => {
        const out = neutralizeMrkdwnCode(value, { max });
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[<>`\r\u2028\u2029\u0085]/);
        expect(out).not.toMatch(/[\p{Cf}\p{Cs}]|[^\P{Cc}\n]/u);
        expect(out).not.toContain('://');
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps JSON readable: line breaks and markers stay, only what could escape the block changes', () => {
    const json = JSON.stringify(
      { metadata: { name: 'kyverno_policy', annotations: { note: '```\n<!channel>' } } },
      null,
      2,
    );
    const out = neutralizeMrkdwnCode(json);
    expect(out.split('\n')).toHaveLength(json.split('\n').length);
    expect(out).toContain('"name": "kyverno_policy"');
    expect(out).toContain('"note": "ˋˋˋ\\n&lt;!channel&gt;"'); // JSON's own \\n escape, not a line break
  });
});

describe('neutralizeMrkdwnId', () => {
  it('shows our ids exactly and anything else neutralized', () => {
    expect(neutralizeMrkdwnId('r_Ab-_9z')).toBe('r_Ab-_9z');
    expect(neutralizeMrkdwnId('r_x> <!channel')).toBe('r_x&gt; &lt;!channel');
  });
});

describe('neutralizeMrkdwnNumber and neutralizeMrkdwnWord (fields our code writes, read back from Redis)', () => {
  it('shows a finite number or one of our words as it is, anything else neutralized', () => {
    expect(neutralizeMrkdwnNumber(2)).toBe('2');
    expect(neutralizeMrkdwnNumber('<!channel>')).toBe('&lt;!channel&gt;');
    expect(neutralizeMrkdwnNumber(Number.NaN)).toBe('NaN');
    expect(neutralizeMrkdwnWord('critical', ['critical', 'healthy'])).toBe('critical');
    expect(neutralizeMrkdwnWord('<!here>\nX', ['critical'])).toBe('&lt;!here&gt; ⏎ X');
    expect(neutralizeMrkdwnWord(['critical'], ['critical'])).toBe('critical');
  });
});

describe(`neutralizePlainText (seed ${FUZZ_SEED})`, () => {
  it('2000 hostile strings: one line, no ANSI/control/bidi/zero-width character, within the cap', () => {
    fc.assert(
      fc.property(anyValue, fc.option(cap, { nil: undefined }), (value, max) => {
        const out = neutralizePlainText(value, { max });
        if (max !== undefined) expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u);
      }),
      { numRuns: 2000 },
    );
  });

  it('drops terminal escapes whole and keeps the text', () => {
    expect(neutralizePlainText('\u001b[1;31mred\u001b[0m \u001b]0;owned\u0007title \u009b2Jx')).toBe('red title x');
    expect(neutralizePlainText(`cause\n[CRITICAL] ${FORGED}`)).toBe(`cause${LINE_BREAK_MARK}[CRITICAL] ${FORGED}`);
    expect(neutralizePlainText('<!channel> *x*')).toBe('<!channel> *x*'); // plain text: nothing to escape
  });
});

describe('what people read in a terminal or a log', () => {
  it('a CLI error keeps its first line, without terminal escapes', () => {
    expect(
      describeError(new Error('\u001b[2J\u001b]0;pwned\u0007cannot read dump\u202e: x\rforged\nsecond line')),
    ).toBe(`cannot read dump: x${LINE_BREAK_MARK}forged`);
    expect(describeError('plain \u0007string')).toBe('plain string');
  });
});
