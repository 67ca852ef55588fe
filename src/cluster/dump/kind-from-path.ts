import { DUMP_LAYOUTS } from './layouts/index.js';
import type { PathKind } from './layouts/dump-layout.js';

export type { PathKind } from './layouts/dump-layout.js';

/**
 * The kind a dump file holds, from its path, for items that carry no `kind` themselves (typed lists
 * printed by kubectl or troubleshoot have empty TypeMeta): the first layout of the registry
 * (layouts/index.ts) that names the path says it.
 */
export function kindFromPath(filePath: string): PathKind {
  const dirs = filePath.split(/[\\/]/).filter(Boolean);
  const base = (dirs.pop() ?? '').replace(/\.(json|ya?ml|txt)$/i, '');
  for (const layout of DUMP_LAYOUTS) {
    const kind = layout.kindFromPath?.(dirs, base);
    if (kind) return kind;
  }
  return {};
}
