import { KINDS } from '../../kinds.js';
import type { DumpLayout } from './dump-layout.js';

/**
 * sonobuoy results: resources/cluster/<group>_<version>_<plural>.json,
 * resources/ns/<ns>/<group>_<version>_<plural>.json.
 */
const SONOBUOY_NAME = /^([a-z0-9.-]+)_(v\d+(?:(?:alpha|beta)\d+)?)_([a-z0-9]+)$/;

/** sonobuoy results (`core_v1_pods.json`, `admissionregistration.k8s.io_v1_validatingwebhookconfigurations.json`). */
export const sonobuoyLayout: DumpLayout = {
  name: 'sonobuoy results',
  kindFromPath(_dirs, base) {
    const sonobuoy = SONOBUOY_NAME.exec(base.toLowerCase());
    if (!sonobuoy) return undefined;
    const group = sonobuoy[1] === 'core' ? '' : sonobuoy[1]!;
    const spec = KINDS.find((k) => k.plural === sonobuoy[3] && k.group === group);
    return spec ? { spec } : { unread: true };
  },
};
