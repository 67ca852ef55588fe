import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CORE_SCHEMA, dump, loadAll } from 'js-yaml';
import { parseKubectlYaml, UnsupportedYaml } from '../../../src/cluster/dump/parse-kubectl-yaml.js';
import { readObjectFile } from '../../../src/cluster/dump/parse-object-file.js';

/** The fast reader of kubectl's YAML gives what a full YAML 1.2 parser gives, or steps aside. */
const full = (text: string) => loadAll(text, { schema: CORE_SCHEMA });

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/i.test(e)) out.push(p);
  }
  return out;
}

describe('parseKubectlYaml', () => {
  it('equals js-yaml (core schema) on every YAML file of the fixtures, scenarios and config examples it reads', () => {
    const files = [...yamlFiles('test/fixtures'), ...yamlFiles('examples'), ...yamlFiles('config')];
    let read = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      let fast: unknown[];
      try {
        fast = parseKubectlYaml(text);
      } catch (e) {
        expect(`${f}: ${e instanceof UnsupportedYaml}`).toBe(`${f}: true`);
        continue;
      }
      read++;
      expect({ f, v: fast }).toEqual({ f, v: full(text) });
    }
    // Nearly every file is kubectl-shaped: the fast path is the path.
    expect(read).toBeGreaterThan(files.length * 0.8);
  });

  it('what go-yaml writes: sequences at the key indentation, folded long strings, quotes, literal blocks, empty flows', () => {
    const text = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  annotations:',
      '    kubectl.kubernetes.io/last-applied-configuration: |',
      '      {"apiVersion":"v1","kind":"Pod"}',
      '    note: |-',
      '      line one',
      '',
      '      line three',
      '  name: web-1',
      '  labels: {}',
      'spec:',
      '  containers:',
      '  - args:',
      '    - --port=8080',
      '    - "--flag=a: b"',
      "    - 'it''s'",
      '    name: web',
      '    ports: []',
      '    k:{"name":"web"}: {}',
      'status:',
      '  conditions:',
      '  - message: "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available:',
      '      3 No preemption victims found for incoming pod."',
      '    reason: Unschedulable',
      '    status: "False"',
      '    lastProbeTime: null',
      '  - message: plain text that go-yaml folded',
      '      over two lines',
      '    ready: true',
      '    restartCount: 0',
      '    ratio: 0.5',
      '    ip: 10.244.0.1',
      '    time: 2026-11-20T08:00:00Z',
      '    escaped: "tab\\there \\u00e9"',
      '---',
      '# a comment',
      '- a',
      '- - b',
      '  - c',
      '-',
      '  d: 1',
      '',
    ].join('\n');
    expect(parseKubectlYaml(text)).toEqual(full(text));
  });

  it('steps aside (UnsupportedYaml) for anchors, aliases, tags, folded scalars, comments after plain scalars, duplicate keys and tabs', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: >\n  folded\n',
      'a: b # c\n',
      'a: 1\na: 2\n',
      'a:\n\t- 1\n',
      'a: [b, c]\n',
      'a: 0x1F\n',
      'a: +1\n',
      'a: 12345678901234567890\n',
    ]) {
      expect(() => parseKubectlYaml(text)).toThrow(UnsupportedYaml);
    }
  });

  it('readObjectFile still reads what the fast reader refuses (aliases, comments) through the full parsers', () => {
    const text = 'apiVersion: v1\nkind: Node # a comment\nmetadata: &m\n  name: n1\n';
    expect(readObjectFile(text, 'nodes.yaml').objects.map((o) => o.metadata.name)).toEqual(['n1']);
    // Aliases expanded without limit are the billion-laughs trap: the full parser refuses past its limit.
    const laughs = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, k) =>
          `${String.fromCharCode(98 + k)}: &${String.fromCharCode(98 + k)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + k)}`)
            .join(',')}]`,
      ),
    ].join('\n');
    expect(() => readObjectFile(laughs, 'x.yaml')).toThrow(/alias/i);
  });

  it('random kubectl-shaped objects round-trip as js-yaml reads them', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          metadata: { name: 'a', labels: { 'x/y': 'true', n: '1' } },
          spec: {
            list: [1, 'two', { three: [] }],
            empty: {},
            nothing: null,
            t: 'multi\nline\n',
            s: 'quote\'s "double"',
          },
        },
      ],
    };
    for (const text of [dump(obj), dump(obj, { lineWidth: 20 }), JSON.stringify(obj, null, 2)])
      expect(parseKubectlYaml(text)).toEqual(full(text));
  });

  it('any JSON value js-yaml writes (any line width) is read as js-yaml reads it, or refused', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(-1, 20, 80), (value, lineWidth) => {
        const text = dump(value, { lineWidth });
        let fast: unknown[];
        try {
          fast = parseKubectlYaml(text);
        } catch (e) {
          if (!(e instanceof UnsupportedYaml)) throw e;
          return;
        }
        expect(JSON.stringify(fast)).toBe(JSON.stringify(full(text)));
      }),
      { numRuns: 1000 },
    );
  });
});
