import { describe, expect, it } from '@jest/globals';
import { parseObjectFile } from '../../../src/cluster/dump/parse-object-file.js';

describe('parseObjectFile: YAML nesting guard', () => {
  it('refuses flow nesting deeper than 256 levels with one line, before the parser recurses', () => {
    // `[` × 5000 once killed a jest worker: the yaml parser recursed to the stack limit and V8's
    // RegExp compiler died there with a fatal "out of memory" no try/catch can catch.
    for (const text of ['['.repeat(5000) + ']'.repeat(5000), 'a: ' + '{x: '.repeat(300) + '1' + '}'.repeat(300)]) {
      expect(() => parseObjectFile(text, 'deep.yaml')).toThrow(
        /^invalid YAML: nested deeper than 256 levels of \[ and \{ \(\d+\); not a Kubernetes object$/,
      );
    }
  });

  it('counts no brackets inside quoted strings or comments, so real objects with brackets in text still parse', () => {
    const text = [
      'apiVersion: v1',
      'kind: Node',
      'metadata:',
      `  name: n1 # ${'['.repeat(400)}`,
      `  annotations: { note: "${'['.repeat(400)}", other: '${'{'.repeat(400)}' }`,
      'status:',
      '  conditions: [{ type: Ready, status: "True" }]',
    ].join('\n');
    const [node] = parseObjectFile(text, 'node.yaml');
    expect(node?.metadata.name).toBe('n1');
    expect((node?.metadata.annotations as Record<string, string>).note).toBe('['.repeat(400));
    // JSON is parsed natively (no recursion limit of ours): deep JSON is the parser's to refuse or read.
    expect(
      parseObjectFile(JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'n2' } }), 'n.json')[0]
        ?.metadata.name,
    ).toBe('n2');
  });
});
