import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { readEnvOptions } from '../config/read-env-options.js';
import type { CliIo } from './cli-io.js';
import { WORKER_KINDS } from '../jobs/worker-kinds.js';
import { formatCliError } from './format-cli-error.js';
import { parseWorkerKinds } from './parse-worker-kinds.js';
import { UsageError } from './usage-error.js';

export type { CliIo };

/**
 * Each command's module is imported when that command runs: `--help` and `check --from`
 * must not pay for Bolt, BullMQ, ioredis, client-node and etcd3. Keep this file's static imports to
 * commander and small local modules (`npm run bench` holds the start-up ratios).
 *
 * The `k8s-health` command line (composition root). Returns the exit status instead of exiting,
 * so tests run it in-process: 0 ok, 1 critical findings (check), 2 bad usage or unreadable input.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let status = 0;
  const program = new Command()
    .name('k8s-health')
    .description('Cluster health for Cluster API managed Kubernetes: diagnosis, Slack bot, approval-gated fixes')
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .version(readVersion(), '-V, --version', 'print the version');

  program
    .command('check')
    .description('one-shot health summary of a live cluster (--cluster) or of dumps (--from, replayed in order)')
    .option('--cluster <name>', 'cluster name from the config file (with --from: the name to report under)')
    .option('--config <file>', 'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml)')
    .option(
      '--from <dir>',
      'read a dump directory instead of a live cluster; repeat to replay successive scans',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--now <iso>', "analysis time (default: the dump's collectedAt, else now)")
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'blocks']).default('text'))
    .option(
      '--section <id>',
      'only this section: apiserver, etcd, controlplane, nodes, machines, upgrades, webhooks, workloads',
    )
    .action(async (o) => {
      status = await (await import('./run-check.js')).runCheck(o, io);
    });

  program
    .command('clusters')
    .description(
      'list every configured and discovered (fleet) cluster with its fleet, namespace, status and whether workload credentials are enrolled',
    )
    .option('--config <file>', 'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o: { config?: string; output: string }) => {
      status = await (await import('./run-clusters.js')).runClusters(o, io);
    });

  program
    .command('enroll')
    .description(
      'give the bot read-only access to a discovered cluster: creates a read-only ServiceAccount, ClusterRole and token in it with an admin credential used once, and stores the kubeconfig as a labelled Secret next to its Cluster object',
    )
    .argument('<cluster>', "a cluster the config's fleets discover (`k8s-health clusters` lists them)")
    .option('--config <file>', 'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml)')
    .option('--kubeconfig <file>', "the workload cluster's admin kubeconfig (yours), used for this command only")
    .option('--context <name>', 'context in that kubeconfig')
    .option('--use-capi-secret', "use Cluster API's <cluster>-kubeconfig Secret as the admin credential instead")
    .option(
      '--replace',
      'delete and recreate a reader object already there that is not what enroll creates (default: fail naming it)',
    )
    .action(
      async (
        cluster: string,
        o: { config?: string; kubeconfig?: string; context?: string; useCapiSecret?: boolean; replace?: boolean },
      ) => {
        status = await (await import('./run-enroll.js')).runEnroll(cluster, o, io);
      },
    );

  program
    .command('dump')
    .description("write a live cluster's snapshot in the dump format (readable by check --from)")
    .option('--cluster <name>', 'cluster name from the config file')
    .option('--config <file>', 'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml)')
    .requiredOption('--out <dir>', 'output directory (created; must be empty or a previous dump)')
    .action(async (o) => {
      status = await (await import('./run-dump.js')).runDump(o, io);
    });

  const audit = program
    .command('audit')
    .description(
      'print the approval audit trail (proposals, votes, executions, results), newest first; `audit verify` checks its hash chain',
    )
    .option('--cluster <name>', 'only this cluster')
    .option('--limit <n>', 'at most this many events', '50')
    .option('--json', 'one JSON object per line')
    .action(async (o: { cluster?: string; limit?: string; json?: boolean }) => {
      status = await (await import('./run-audit.js')).runAudit(o, io);
    });
  audit
    .command('verify')
    .description(
      'walk the audit hash chain: "intact, N records" (exit 0) or the first broken link (exit 1); MACs and the signed head too when K8S_HEALTH_PLAN_SECRET is set',
    )
    .option('--json', 'the result as one JSON object')
    .option(
      '--log <file>',
      'also prove the Redis trail against the bot\'s logs: a file of its JSON log lines (those with "audit": true are used)',
    )
    .action(async (o: { json?: boolean; log?: string }) => {
      // commander gives a parent's options to the parent wherever they appear: `audit verify --json`
      // sets audit's --json, not verify's.
      status = await (
        await import('./run-audit-verify.js')
      ).runAuditVerify({ json: o.json || audit.opts().json, log: o.log }, io);
    });

  program
    .command('timeline')
    .description(
      'a Markdown incident timeline of one cluster from Redis: findings first seen / changed / resolved, what changed since last healthy, who proposed, approved and ran which fix',
    )
    .argument('<cluster>', 'cluster name (as in the config file)')
    .option('--since <when>', 'only what happened since: a duration (90m, 6h, 2d) or an ISO time')
    .option(
      '--config <file>',
      'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml); when there is one the cluster must be in it',
    )
    .action(async (cluster: string, o: { since?: string; config?: string }) => {
      status = await (await import('./run-timeline.js')).runTimeline(cluster, o, io);
    });

  program
    .command('serve')
    .description(
      'run the Slack app (Socket Mode when SLACK_APP_TOKEN is set, else HTTP on $PORT) and, unless --no-workers, the workers',
    )
    .option('--config <file>', 'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml)')
    .option('--no-workers', 'do not run scan/notify/remediate workers in this process')
    .option(
      '--no-cluster-access',
      'never talk to a cluster from this process: scans only through worker replicas, no fix is planned here (with --no-workers; docs/security.md)',
    )
    .action(async (o: { config?: string; workers: boolean; clusterAccess: boolean }) => {
      if (!o.clusterAccess && o.workers)
        throw new UsageError(
          'serve: --no-cluster-access needs --no-workers (in-process workers scan and remediate clusters)',
        );
      const env = readEnvOptions(io.env);
      const { resolveConfig } = await import('./resolve-config.js');
      const { config } = await resolveConfig(o.config ?? env.configFile, io.env, true);
      status = await (
        await import('./run-serve.js')
      ).runServe({ config, env, workers: o.workers, clusterAccess: o.clusterAccess }, io);
    });

  program
    .command('worker')
    .description(
      'run the BullMQ workers only (add replicas to scale out), with /healthz, /readyz and /metrics on $PORT',
    )
    .option('--config <file>', 'config file (default $K8S_HEALTH_CONFIG, else config/config.yaml)')
    .option(
      '--only <workers>',
      `run only these workers, comma-separated: ${WORKER_KINDS.join(', ')} (default all); e.g. scan,notify,expiry or remediate`,
    )
    .action(async (o: { config?: string; only?: string }) => {
      const only = o.only === undefined ? undefined : parseWorkerKinds(o.only);
      const env = readEnvOptions(io.env);
      const { resolveConfig } = await import('./resolve-config.js');
      const { config } = await resolveConfig(o.config ?? env.configFile, io.env, true);
      status = await (await import('./run-worker.js')).runWorker({ config, env, only }, io);
    });

  program
    .command('sandbox')
    .description(
      'a local web page that plays an incident channel: the real bot on the bundled scenarios, no Slack, cluster or Redis to set up (URL on stdout; PORT, else a free port)',
    )
    .option('--scenario <name>', 'scenario to start with (default: the live incident)')
    .action(async (o: { scenario?: string }) => {
      const env = readEnvOptions(io.env);
      status = await (
        await import('./run-sandbox.js')
      ).runSandbox(
        { env, portSet: Boolean(io.env.PORT), redisUrlSet: Boolean(io.env.REDIS_URL), scenario: o.scenario },
        io,
      );
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are not errors; commander already printed its one-line message otherwise.
      return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.help' ? 0 : 2;
    }
    io.stderr.write(`k8s-health: ${formatCliError(err)}\n`);
    return 2;
  }
}

/** The package's version (package.json next to src/ and dist/, as the image ships it). */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
