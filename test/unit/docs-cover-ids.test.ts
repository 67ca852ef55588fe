import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ANALYZERS } from '../../src/diagnose/analyzers/index.js';
import { ACTION_IDS, FINDING_IDS } from '../../src/diagnose/finding.js';

/**
 * Ids are a contract users read about: every finding id has its block in docs/diagnosis.md and an analyzer, every
 * action is in docs/approvals.md.
 */
describe('docs cover every id', () => {
  const diagnosis = readFileSync('docs/diagnosis.md', 'utf8');
  const approvals = readFileSync('docs/approvals.md', 'utf8');
  it('every finding id has one analyzer and one "## <id>" block with Needs, Lacking evidence, Quiet when, Covered by', () => {
    expect(ANALYZERS.map((a) => a.id).sort()).toEqual([...FINDING_IDS].sort());
    for (const id of FINDING_IDS) {
      const start = diagnosis.indexOf(`\n## ${id}\n`);
      expect(`${id}: ${start >= 0}`).toBe(`${id}: true`);
      const block = diagnosis.slice(start, diagnosis.indexOf('<!-- end -->', start));
      for (const head of ['**Needs:**', '**Lacking evidence, it says:**', '**Quiet when:**', '**Covered by:**'])
        expect(`${id} ${head}: ${block.includes(head)}`).toBe(`${id} ${head}: true`);
    }
  });
  it('every catalog action is named in docs/approvals.md', () => {
    expect(ACTION_IDS.filter((a) => !approvals.includes(`\`${a}\``))).toEqual([]);
  });
});
