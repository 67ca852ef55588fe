import { describe, expect, it } from '@jest/globals';
import { capiMachineStuckDeletingAnalyzer } from '../../../src/diagnose/analyzers/capi-machine-stuck-deleting.js';
import { buildContext, buildSnapshot, machine } from '../../support/build-snapshot.js';

const run = (m: ReturnType<typeof machine>) =>
  capiMachineStuckDeletingAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines: [m] } })));

describe('capi.machine-stuck-deleting', () => {
  it('warns past deletingMinutes, quoting the deletionTimestamp', () => {
    const [f] = run(machine({ name: 'w', phase: 'Deleting', nodeName: 'w', deletingMinutesAgo: 45 }));
    expect(f).toMatchObject({ severity: 'warning', subject: { kind: 'Machine', namespace: 'tkg-system', name: 'w' } });
    expect(f!.title).toMatch(/stuck Deleting for 45m/);
    expect(f!.evidence[0]).toMatch(/deletionTimestamp=2023-11-30T16:15:00/);
  });
  it.each([
    ['deleting for 3 minutes', machine({ name: 'w', deletingMinutesAgo: 3 })],
    ['deletionTimestamp in the future', machine({ name: 'w', deletingMinutesAgo: -60 })],
    ['not deleting', machine({ name: 'w' })],
  ])('quiet: %s', (_n, m) => expect(run(m)).toEqual([]));
});
