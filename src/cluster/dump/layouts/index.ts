import type { DumpLayout } from './dump-layout.js';
import { clusterInfoDumpLayout } from './cluster-info-dump.js';
import { kubectlTreeLayout } from './kubectl-tree.js';
import { ownDumpLayout } from './own-dump.js';
import { sonobuoyLayout } from './sonobuoy.js';
import { troubleshootLayout } from './troubleshoot.js';

/**
 * The explicit registry of capture formats `check --from` reads (no import-time self-registration).
 * Order matters where two name one path: the first that names it wins (a sonobuoy name is also a
 * plausible file name, and a file named after a kind beats its folder's name).
 */
export const DUMP_LAYOUTS: readonly DumpLayout[] = [
  sonobuoyLayout,
  ownDumpLayout,
  kubectlTreeLayout,
  clusterInfoDumpLayout,
  troubleshootLayout,
];

/** Entries of a dump root that no layout reads as workload objects. */
export const RESERVED_ROOT_ENTRIES: ReadonlySet<string> = new Set(DUMP_LAYOUTS.flatMap((l) => l.reserved ?? []));
