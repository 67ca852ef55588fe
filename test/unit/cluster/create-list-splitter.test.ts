import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createListSplitter } from '../../../src/cluster/live/create-list-splitter.js';
import { useFuzzSeed } from '../../support/fuzz-seed.js';

useFuzzSeed();

/** Split an answer into chunks at the given cut points (any position: inside strings, escapes, numbers). */
function chunks(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

function split(text: string, cuts: number[]) {
  const items: unknown[] = [];
  const headers: unknown[] = [];
  const splitter = createListSplitter((item, list) => {
    items.push(item);
    headers.push(list);
  });
  for (const c of chunks(text, cuts)) splitter.write(c);
  return { items, headers, envelope: splitter.end() };
}

// Strings with quotes, backslashes, brackets, unicode (incl. astral) and control characters.
const nasty = fc.string({
  unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', 'a', 'é', '😀', '\n', ' ', 'items'),
});
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { maxDepth: 4 },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    nasty,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(nasty, tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('createListSplitter', () => {
  it('hands over every element of items exactly as JSON.parse of the whole answer would, whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 8 }),
        fc.dictionary(nasty, value, { maxKeys: 3 }),
        fc.boolean(),
        fc.constantFrom(0, 2),
        fc.array(fc.nat(), { maxLength: 12 }),
        (items, extra, itemsFirst, indent, cuts) => {
          const { items: _i, apiVersion: _a, kind: _k, metadata: _m, ...rest } = extra as Record<string, unknown>;
          const head = {
            kind: 'PodList',
            apiVersion: 'v1',
            metadata: { continue: 'tok"en', resourceVersion: '7' },
            ...rest,
          };
          const list = itemsFirst ? { items, ...head } : { ...head, items };
          const text = JSON.stringify(list, null, indent);
          const got = split(text, cuts);
          expect(got.items).toEqual(JSON.parse(JSON.stringify(items)));
          for (const h of got.headers) expect(h).toEqual({ apiVersion: 'v1', kind: 'PodList' });
          expect(got.envelope).toEqual(JSON.parse(JSON.stringify({ ...list, items: [] })));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("finds item ends by the next item's first key without being fooled by look-alikes in strings or nested arrays", () => {
    const tricky = [
      {
        metadata: { name: 'a', annotations: { x: '},{"metadata":{}' } },
        spec: { list: [{ metadata: 1 }, { metadata: 2 }] },
      },
      { metadata: { name: 'b\\' } },
      { metadata: { name: 'c' }, status: { conditions: [{ type: 'Ready' }, { type: 'x' }] } },
    ];
    const page = JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: tricky });
    for (let cut = 0; cut <= page.length; cut += 3) expect(split(page, [cut, cut * 7]).items).toEqual(tricky);
  });

  it('splits a real-looking page cut at every position', () => {
    const page = JSON.stringify({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { continue: 'abc' },
      items: [{ metadata: { name: 'a"]}' } }, { metadata: { name: 'b\\' } }],
    });
    for (let cut = 0; cut <= page.length; cut++) {
      const got = split(page, [cut]);
      expect(got.items).toEqual([{ metadata: { name: 'a"]}' } }, { metadata: { name: 'b\\' } }]);
      expect(got.envelope.metadata?.continue).toBe('abc');
    }
  });

  it('rejects an answer that ends inside a value or is not JSON', () => {
    const truncated = createListSplitter(() => undefined);
    truncated.write('{"kind":"PodList","items":[{"metadata":{"name":"a"}');
    expect(() => truncated.end()).toThrow(SyntaxError);
    const html = createListSplitter(() => undefined);
    html.write('<html>bad gateway</html>');
    expect(() => html.end()).toThrow(SyntaxError);
  });
});
