import { DEFAULT_RUNBOOK_BASE_URL } from '../../config/defaults.js';

/**
 * The runbook of a finding id: its section of docs/diagnosis.md (`## etcd.member-mismatch`) on
 * `slack.runbookBaseUrl`. The anchor is the heading as GitHub (and most Markdown renderers) slug it:
 * lower case, punctuation other than `-` and `_` dropped, so `etcd.member-mismatch` →
 * `#etcdmember-mismatch`. Only ever built from our own ids and the configured URL.
 */
export function runbookUrl(findingId: string, baseUrl: string = DEFAULT_RUNBOOK_BASE_URL): string {
  return `${baseUrl.replace(/\/+$/, '')}/docs/diagnosis.md#${headingAnchor(findingId)}`;
}

/** GitHub's heading slug: lower case, spaces to `-`, everything but letters, digits, `-` and `_` dropped. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\s/g, '-')
    .replace(/[^a-z0-9_-]/g, '');
}
