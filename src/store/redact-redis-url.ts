/**
 * A Redis URL as log lines and Slack may show it: the password (and a username that is not the
 * default) replaced by `***`, so an outage line can name the address without leaking the credential.
 * An address that does not parse as a URL is shown as `host:port` pairs only when it looks like
 * them, never verbatim.
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return /^[\w.-]+:\d+$/.test(url) ? url : '(REDIS_URL, unparsable)';
  }
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}
