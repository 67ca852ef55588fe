import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';

/**
 * What a person sees when the bot cannot reach Redis: the address (credentials redacted), and that it retries by
 * itself.
 */
export function stateStoreUnreachableText(address: string): string {
  return `k8s-health: state store unreachable (Redis at ${address}); the bot retries by itself, try again in a minute.`;
}

/**
 * While Redis is unreachable every command, button and form would wait on it until Slack gives up
 * (3 s, then "operation_timeout" for the user): reports, approvals, proposals and the replay guard
 * all live there. This global middleware answers them at once instead — a slash command in its
 * ack, an interaction with an ephemeral reply — and drops events (App Home opens), which Slack does
 * not wait on. `reachable` is the process's own view (its command connection is ready).
 */
export function registerStateStoreGuard(
  app: App,
  opts: { reachable: () => boolean; address: string; onRefused?: () => void },
): void {
  const guard: Middleware<AnyMiddlewareArgs> = async (args) => {
    if (opts.reachable()) return args.next();
    opts.onRefused?.();
    const text = stateStoreUnreachableText(opts.address);
    const a = args as unknown as {
      ack?: (r?: unknown) => Promise<void>;
      respond?: (r: unknown) => Promise<unknown>;
      body: { type?: string; command?: string };
    };
    if (!a.ack) return; // an event: nothing waits for an answer
    if (a.body.command !== undefined) return void (await a.ack({ response_type: 'ephemeral', text }));
    await a.ack();
    await a.respond?.({ response_type: 'ephemeral', replace_original: false, text }).catch(() => undefined);
  };
  app.use(guard);
}
