import type { EtcdCommand, EtcdCommandError } from '../snapshot.js';

const COMMAND_ORDER: EtcdCommand[] = ['member list', 'endpoint status', 'endpoint health', 'alarm list'];

/** Errors by command (the order of DIR/etcd/ files), then endpoint and text; duplicates once. */
export function sortEtcdErrors(errors: EtcdCommandError[]): EtcdCommandError[] {
  const seen = new Set<string>();
  return [...errors]
    .sort(
      (a, b) =>
        COMMAND_ORDER.indexOf(a.command) - COMMAND_ORDER.indexOf(b.command) ||
        cmp(a.endpoint ?? '', b.endpoint ?? '') ||
        cmp(a.error, b.error),
    )
    .filter((e) => {
      const k = `${e.command}\u0000${e.endpoint ?? ''}\u0000${e.error}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
