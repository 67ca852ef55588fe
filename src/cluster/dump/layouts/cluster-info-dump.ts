import type { DumpLayout } from './dump-layout.js';
import { kindFromFileName } from './kind-from-name.js';

/** kubectl prints each List as `{` then `"kind": "NodeList"` (indented, or not when the copy lost it). */
const CLUSTER_INFO_STDOUT = /(^|\n)\{\s*"kind"\s*:\s*"[A-Za-z]*List"/;

/**
 * `kubectl cluster-info dump --output-directory`: `nodes.json`, `<namespace>/pods.json`… named after
 * the kind; or its stdout saved as a `.txt`, Lists one after the other (told from a pod log by its start).
 */
export const clusterInfoDumpLayout: DumpLayout = {
  name: 'kubectl cluster-info dump',
  kindFromPath: kindFromFileName,
  holdsObjects: (head) => CLUSTER_INFO_STDOUT.test(head),
};
