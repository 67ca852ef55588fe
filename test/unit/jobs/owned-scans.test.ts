import { describe, expect, it } from '@jest/globals';
import { createOwnedScans, type ScanTrigger } from '../../../src/jobs/create-owned-scans.js';

/** A scan that finishes when the test says so. */
function gate() {
  const calls: { cluster: string; trigger: ScanTrigger; done: () => void }[] = [];
  const waiters: (() => void)[] = [];
  return {
    calls,
    scan: (cluster: string, trigger: ScanTrigger) =>
      new Promise<void>((resolve) => {
        calls.push({ cluster, trigger, done: resolve });
        waiters.splice(0).forEach((w) => w());
      }),
    /** Resolves once `n` scans have started. */
    started: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (calls.length >= n ? resolve() : waiters.push(check));
        check();
      }),
  };
}

describe('owned scans (fleet mode): acquire, events coalesced, loss', () => {
  it('scans on acquire; a burst of events during a scan becomes exactly one more scan', async () => {
    const g = gate();
    const owned = createOwnedScans({ scan: g.scan, intervalMs: 3_600_000, debounceMs: 20, concurrency: 2 });
    owned.acquire('a');
    await g.started(1);
    expect(g.calls.map((c) => [c.cluster, c.trigger])).toEqual([['a', 'acquired']]);
    for (let i = 0; i < 50; i++) owned.changed('a');
    g.calls[0]!.done();
    await g.started(2);
    expect(g.calls[1]!.trigger).toBe('event');
    for (let i = 0; i < 50; i++) owned.changed('a'); // due already or running: coalesced again
    g.calls[1]!.done();
    await g.started(3);
    g.calls[2]!.done();
    await owned.stop();
    expect(g.calls.map((c) => c.trigger)).toEqual(['acquired', 'event', 'event']);
  });

  it('a scan for a change goes before the acquire and interval scans waiting for a slot', async () => {
    const g = gate();
    const owned = createOwnedScans({ scan: g.scan, intervalMs: 3_600_000, debounceMs: 20, concurrency: 1 });
    owned.acquire('a');
    owned.acquire('b');
    owned.acquire('c');
    await g.started(1);
    g.calls[0]!.done(); // a done; b starts, c waits
    await g.started(2);
    owned.changed('a');
    await new Promise((r) => setTimeout(r, 200)); // past the debounce: a is queued
    g.calls[1]!.done();
    await g.started(3);
    expect(g.calls.map((c) => `${c.cluster}:${c.trigger}`)).toEqual(['a:acquired', 'b:acquired', 'a:event']);
    g.calls[2]!.done();
    await g.started(4);
    g.calls[3]!.done();
    await owned.stop();
    expect(g.calls.map((c) => c.cluster)).toEqual(['a', 'b', 'a', 'c']);
  });

  it('events of a cluster not owned (or no longer) start nothing; two clusters scan side by side', async () => {
    const g = gate();
    const owned = createOwnedScans({ scan: g.scan, intervalMs: 3_600_000, debounceMs: 20, concurrency: 2 });
    owned.changed('x');
    owned.acquire('a');
    owned.acquire('b');
    await g.started(2);
    expect(g.calls.map((c) => c.cluster).sort()).toEqual(['a', 'b']);
    owned.lose('a');
    owned.changed('a');
    for (const c of g.calls) c.done();
    await owned.stop();
    expect(g.calls).toHaveLength(2);
  });
});
