import type { Snapshot } from './snapshot.js';

/** STUB (to be implemented by the dump-loader work): a dump directory as a Snapshot. */
export async function loadDump(dir: string, opts: { cluster?: string } = {}): Promise<Snapshot> {
  throw new Error(`loadDump not implemented (${dir} ${opts.cluster ?? ''})`);
}
