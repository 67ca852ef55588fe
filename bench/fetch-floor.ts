import { KINDS } from '../src/cluster/kinds.js';

/**
 * The floor of target 2: plain paged HTTP GET + JSON.parse of exactly the lists the collector
 * reads (every KINDS entry, same page size, same 4 lists in flight), keeping nothing.
 * Returns the number of items read.
 */
export async function fetchFloor(url: string, pageSize = 500, concurrency = 4): Promise<number> {
  let items = 0;
  const jobs = KINDS.map((spec) => async () => {
    for (const version of spec.versions) {
      const path = `${spec.group ? `/apis/${spec.group}` : '/api'}/${version}/${spec.plural}`;
      let cont: string | undefined;
      let found = true;
      do {
        const q = new URLSearchParams(
          cont ? { limit: String(pageSize), continue: cont } : { limit: String(pageSize), resourceVersion: '0' },
        );
        const res = await fetch(`${url}${path}?${q}`, {
          headers: { Accept: 'application/json', Authorization: 'Bearer test-token' },
        });
        const text = await res.text();
        if (res.status === 404) {
          found = false;
          break;
        }
        const page = JSON.parse(text) as { items?: unknown[]; metadata?: { continue?: string } };
        items += page.items?.length ?? 0;
        cont = page.metadata?.continue || undefined;
      } while (cont);
      if (found) return;
    }
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  return items;
}
