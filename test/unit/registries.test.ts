import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ACTIONS } from '../../src/approvals/actions/index.js';
import { DUMP_LAYOUTS } from '../../src/cluster/dump/layouts/index.js';
import { ANALYZERS } from '../../src/diagnose/analyzers/index.js';
import { ACTION_IDS, FINDING_IDS } from '../../src/diagnose/finding.js';
import * as actionIds from '../../src/slack/action-ids.js';
import {
  FOREIGN_ACTION_PATTERN,
  OWN_ACTION_IDS,
  OWN_ACTION_PATTERN,
  proposeFixActionId,
} from '../../src/slack/action-ids.js';

/**
 * Each registry is the single list its ids come from: an analyzer is its file plus its line in
 * diagnose/analyzers/index.ts, an action its file plus its line in approvals/actions/index.ts, a Slack
 * button its constant in slack/action-ids.ts. Everything that lists them again (the id unions, the
 * tables of docs/design.md, the listeners' patterns) is checked against the registry here.
 */
describe('registries', () => {
  const design = readFileSync('docs/design.md', 'utf8');
  /** The first column of the table under a docs/design.md heading: `| \`id\` | …`. */
  const tableIds = (heading: string) => {
    const start = design.indexOf(`\n## ${heading}\n`);
    expect(start).toBeGreaterThanOrEqual(0);
    const end = design.indexOf('\n## ', start + 1);
    const section = design.slice(start + 1, end < 0 ? undefined : end);
    return [...section.matchAll(/^\| `([a-z.-]+)` \|/gm)].map((m) => m[1]!);
  };

  it('analyzers: one per finding id, no id twice, and docs/design.md "Finding ids" lists exactly them', () => {
    const ids = ANALYZERS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...FINDING_IDS].sort());
    expect(tableIds('Finding ids').sort()).toEqual([...ids].sort());
  });

  it('actions: the catalog is the action registry, and docs/design.md "Fix catalog" lists exactly it', () => {
    const ids = ACTIONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...ACTION_IDS].sort());
    expect(tableIds('Fix catalog (every action needs approval)').sort()).toEqual([...ids].sort());
  });

  it("Slack action ids: the listeners' patterns are derived from the one list", () => {
    for (const id of [...OWN_ACTION_IDS, proposeFixActionId(0), proposeFixActionId(12)]) {
      expect(`${id} own=${OWN_ACTION_PATTERN.test(id)} foreign=${FOREIGN_ACTION_PATTERN.test(id)}`).toBe(
        `${id} own=true foreign=false`,
      );
    }
    for (const id of [
      'k8s-health.details.old',
      'k8s-health.propose-fix.x',
      'k8s-health.approval.confirm',
      'other-app.button',
      'k8s-health.alert.own2',
    ]) {
      expect(`${id} own=${OWN_ACTION_PATTERN.test(id)} foreign=${FOREIGN_ACTION_PATTERN.test(id)}`).toBe(
        `${id} own=false foreign=true`,
      );
    }
  });

  it('Slack action ids: every action_id a Slack file builds or listens to is a constant of slack/action-ids.ts', () => {
    const exported = new Set(Object.keys(actionIds));
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    const used = walk('src/slack').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/action_id: ([A-Z_]+_ACTION_ID)\b/g)].map((m) => ({ file, id: m[1]! })),
    );
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((u) => !exported.has(u.id))).toEqual([]);
  });

  it('dump layouts: every layout file of cluster/dump/layouts/ is in the registry, once', async () => {
    const helpers = new Set(['dump-layout.ts', 'kind-from-name.ts', 'index.ts']);
    const files = readdirSync('src/cluster/dump/layouts')
      .filter((f) => !helpers.has(f))
      .sort();
    const registered = await Promise.all(
      files.map(
        async (f) =>
          Object.values(await import(`../../src/cluster/dump/layouts/${f.replace(/\.ts$/, '.js')}`)).filter((v) =>
            DUMP_LAYOUTS.includes(v as never),
          ).length,
      ),
    );
    expect(Object.fromEntries(files.map((f, i) => [f, registered[i]]))).toEqual(
      Object.fromEntries(files.map((f) => [f, 1])),
    );
    expect(new Set(DUMP_LAYOUTS.map((l) => l.name)).size).toBe(DUMP_LAYOUTS.length);
  });
});
