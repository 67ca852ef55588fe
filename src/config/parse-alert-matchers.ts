import { ConfigError } from './config-error.js';

/** One Alertmanager matcher: `name="value"`, `!=`, `=~` (regex), `!~`. */
export interface AlertMatcher {
  name: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
  /** For `=~` and `!~`: the regex, anchored as Alertmanager anchors it. */
  regex?: RegExp;
}

const MATCHER = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|([^",{}]*?))\s*$/;

/**
 * Alertmanager's matcher syntax, as in `amtool` and a route's `matchers`: `{env="prod", region=~"eu-.*"}`
 * or `env=prod`, comma-separated, braces optional. A bad one is a ConfigError naming it, so a typo in
 * `clusters[].alertmanager.matchers` or `k8s-health.io/alert-matchers` is found at load, not by an
 * alert that never arrives.
 */
export function parseMatchers(text: string, where: string): AlertMatcher[] {
  const inner = text.trim().replace(/^\{([\s\S]*)\}$/, '$1');
  const parts = splitOutsideQuotes(inner).filter((p) => p.trim() !== '');
  if (parts.length === 0) throw new ConfigError(`${where}: "${text.slice(0, 80)}" has no matcher (e.g. {env="prod"})`);
  return parts.map((part) => {
    const m = MATCHER.exec(part);
    if (!m)
      throw new ConfigError(
        `${where}: "${part.trim().slice(0, 80)}" is not a matcher (name="value", name!="value", name=~"regex" or name!~"regex")`,
      );
    const op = m[2] as AlertMatcher['op'];
    const value = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[4]!;
    if (op === '=~' || op === '!~') {
      try {
        return { name: m[1]!, op, value, regex: new RegExp(`^(?:${value})$`) };
      } catch {
        throw new ConfigError(`${where}: "${value.slice(0, 80)}" in ${m[1]} is not a valid regular expression`);
      }
    }
    return { name: m[1]!, op, value };
  });
}

/** Do these labels satisfy every matcher? A missing label is the empty string (Alertmanager's rule). */
export function matchesAll(matchers: readonly AlertMatcher[], labels: Readonly<Record<string, string>>): boolean {
  return matchers.every((m) => {
    const v = labels[m.name] ?? '';
    switch (m.op) {
      case '=':
        return v === m.value;
      case '!=':
        return v !== m.value;
      case '=~':
        return m.regex!.test(v);
      case '!~':
        return !m.regex!.test(v);
    }
  });
}

function splitOutsideQuotes(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && quoted) {
      cur += c + (s[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}
