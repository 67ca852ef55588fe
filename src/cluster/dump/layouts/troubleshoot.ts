import type { DumpLayout } from './dump-layout.js';
import { kindFromName } from './kind-from-name.js';

/**
 * troubleshoot support bundles: `cluster-resources/<kind>/<namespace>.json` (one file per namespace in
 * a folder named after the kind, `pvcs` for PersistentVolumeClaims), and `cluster-resources/<kind>-errors.json`,
 * the errors its collector met listing that kind.
 */
export const troubleshootLayout: DumpLayout = {
  name: 'troubleshoot support bundle',
  kindFromPath(dirs) {
    const byFolder = kindFromName((dirs[dirs.length - 1] ?? '').split('.')[0] ?? '');
    return byFolder.spec || byFolder.unread ? byFolder : undefined;
  },
  errorsFileOf: (file) => (/-errors\.json$/i.test(file) ? file.replace(/-errors\.json$/i, '.json') : undefined),
};
