/** Host part of a URL or endpoint ("https://172.16.52.10:2379" → "172.16.52.10"). */
export function hostOf(url: string): string {
  const noScheme = url.replace(/^[a-z]+:\/\//i, '');
  const hostPort = noScheme.split('/')[0] ?? '';
  if (hostPort.startsWith('[')) return hostPort.slice(1, hostPort.indexOf(']'));
  return hostPort.split(':')[0] ?? '';
}
