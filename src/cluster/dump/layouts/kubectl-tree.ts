import type { DumpLayout } from './dump-layout.js';
import { kindFromFileName } from './kind-from-name.js';

/** A folder of `kubectl get KIND -A -o yaml|json` outputs, each file named after its kind (`nodes.yaml`). */
export const kubectlTreeLayout: DumpLayout = {
  name: 'kubectl get tree',
  kindFromPath: kindFromFileName,
};
