import { hostOf } from './host-of.js';

/**
 * One key per etcd client endpoint however it was written: "https://10.0.0.1:2379/", "10.0.0.1:2379" and
 * "10.0.0.1" (etcdctl takes an endpoint without a port, and prints it as given) are all "10.0.0.1:2379".
 */
export function endpointKey(url: string): string {
  const noScheme = url.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? '';
  const host = hostOf(url);
  const port =
    /:(\d+)$/.exec(noScheme.startsWith('[') ? noScheme.slice(noScheme.indexOf(']')) : noScheme)?.[1] ?? '2379';
  return `${host}:${port}`;
}
