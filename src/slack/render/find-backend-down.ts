import type { Report } from '../../report/report.js';

/**
 * Whether a suspended webhook's backend still looks down in the latest report (pure): the title of a
 * warning or critical finding about the backend's namespace (its pods, its deployment) or naming its
 * service, else undefined. Undoing the suspension while that holds blocks again what it blocked.
 */
export function findBackendDown(
  backend: { namespace: string; name: string } | undefined,
  report: Pick<Report, 'findings'> | undefined,
): string | undefined {
  if (!backend || !report) return undefined;
  const service = `${backend.namespace}/${backend.name}`;
  const hit = report.findings.find(
    (f) =>
      f.severity !== 'info' &&
      (f.subject.namespace === backend.namespace ||
        f.evidence.some((e) => e.includes(service)) ||
        f.title.includes(service)),
  );
  return hit?.title;
}
