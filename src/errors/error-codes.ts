/**
 * Every error code of the bot and what it means: the list operators, tests and metrics match on.
 * A new error class or a new `code` is added here first; K8sHealthError accepts only these, and
 * test/unit/error-codes.test.ts checks that every listed code is raised somewhere.
 */
export const ERROR_CODES = {
  // configuration and command line
  E_CONFIG: 'a config file or an environment variable cannot be used; the message names the bad key',
  E_USAGE: 'bad command-line usage (exit status 2)',
  // reading a cluster or a dump
  E_DUMP: 'a dump directory that cannot be read at all (missing, not a directory, no objects)',
  E_CAPTURE_PARSE:
    'one capture file (etcdctl output, a JSON or YAML object file) is not in a form the bot reads: it is listed under "Not read"',
  E_KUBE_CONFIG: 'a kubeconfig that cannot be used (no context, no cluster, unreadable file)',
  E_KUBE_UNREACHABLE: 'the API server cannot be reached',
  E_KUBE_TIMEOUT: 'the API server did not answer in time',
  E_KUBE_UNAUTHORIZED: 'the API server rejected the credentials (401)',
  E_KUBE_FORBIDDEN: 'the credentials may not do this (403)',
  E_KUBE_NOT_FOUND: 'the object or the resource does not exist (404)',
  E_KUBE_NOT_SERVED: 'the API server does not serve this kind (its CRD is not installed)',
  E_KUBE_SERVER: 'the API server failed (5xx)',
  E_KUBE_RESPONSE: 'the API server answered something that is not what was asked (not JSON, wrong shape)',
  E_SCAN_TIMEOUT: 'a queued scan did not finish in time (no worker took it, or it ran too long)',
  E_SCAN_UNAVAILABLE:
    'no scan can run for this cluster in this process (not configured, or no cluster access and no worker)',
  // alert state
  E_ALERT_LOCK_TIMEOUT: "an alert thread's lock stayed held by another poster",
  E_ALERT_STATE_CONTENDED: "a cluster's alert state kept changing under a compare-and-set (the job is retried)",
  E_ALERT_THREAD_NO_SOURCE: 'an alert thread store was asked for incidents without the incident source it needs',
  // Alertmanager webhooks and silences (docs/alertmanager.md)
  E_ALERT_THREAD_PENDING:
    "a Prometheus alert's root-cause thread is not posted yet (the alerts job is retried shortly)",
  E_ALERTMANAGER_API: "Alertmanager's API v2 (alertmanager.url) did not answer or refused a silence",
  E_ALERTMANAGER_INPUT:
    'an Alertmanager webhook body the bot refuses (malformed JSON, another payload version, too large, wrong token)',
  // approvals and remediation
  E_KEY_MIGRATION_LOCKED:
    'another process held the Redis key-renaming lock for too long at start-up (docs/reliability.md, "Redis Cluster")',
  E_APPROVAL_GONE: 'the approval request is no longer stored',
  E_APPROVAL_EXISTS: 'an approval request with this id already exists',
  E_APPROVAL_TAMPERED: 'the stored approval request does not match its signature: nothing is recorded',
  E_APPROVAL_CONTENDED: 'an approval request or the audit chain kept changing under a compare-and-set',
  E_REMEDIATE_NOT_ALLOWED:
    'the action may not run on this target (policy: a healthy control-plane machine, a system webhook…)',
  E_REMEDIATE_OTHER_CLUSTER:
    'the target of the plan belongs to another Cluster API cluster than the one it was proposed for: refused',
  E_REMEDIATE_NO_TARGET: 'the target of the plan is gone or changed: nothing was changed',
  E_REMEDIATE_PARAMS: "the action's parameters are missing or invalid",
  E_REMEDIATE_ETCD: 'an etcd call of a remediation failed',
  E_REMEDIATE_KUBE: 'a Kubernetes write (or its read) of a remediation failed',
  E_REMEDIATE_UNKNOWN_ACTION: 'the action is not in the catalog',
  E_REMEDIATE_NO_SECRET: 'K8S_HEALTH_PLAN_SECRET is missing or too short: nothing is proposed, approved or executed',
  E_REMEDIATE_BACKUP: 'a backup whose seal does not verify, or that is not the object the plan relies on',
  E_REMEDIATE_DRY_RUN: 'a server-side dry run, or an etcd read-only check, did not pass',
  E_ENROLL_NO_TOKEN: '`k8s-health enroll`: the token controller filled no token in time',
  E_ENROLL_MISMATCH:
    'an object enrollment would reuse (ServiceAccount, ClusterRole, binding, token Secret) is not the read-only one it creates: enroll --replace recreates it',
  E_ENROLL_NOT_READ_ONLY:
    'the credential enrollment would store can do more than read what the bot reads: nothing is stored',
  E_ENROLL_CHECK: '`k8s-health enroll`: the read-only credential it built does not work',
  E_ENROLL_SECRET: "`k8s-health enroll`: the management cluster's kubeconfig Secret cannot be read",
  // Slack
  E_SLACK_TOKEN_MISSING: 'SLACK_BOT_TOKEN is not set',
  E_SLACK_SECRET_MISSING: 'SLACK_SIGNING_SECRET is not set',
  E_SLACK_NOT_STARTED: 'a post was asked for before the Slack app finished starting: it is retried on the next check',
  E_SLACK_AUTH: 'Slack rejected the bot token (auth.test)',
  E_SLACK_REQUEST_REFUSED: 'a Slack request failed the request checks (timestamp, user, workspace)',
  E_STATE_STORE_UNREACHABLE:
    'Redis, the state store, is unreachable: readiness fails and commands answer "state store unreachable" until it is back',
  E_REDIS_PING: 'Redis answered PING with something else (readiness)',
  E_REDIS_CLUSTER_CLOSED: 'a Redis Cluster client was closed while a connect() of it was waiting (the caller retries)',
  E_REDIS_TX_DISCARDED: 'Redis discarded a transaction (MULTI/EXEC answered nil): nothing of it was applied (retried)',
  // the sandbox and its simulated cluster
  E_SANDBOX_PAGE: 'the sandbox page could not serve a request, or its files are missing',
  E_SANDBOX_REDIS: 'the sandbox could not start or reach its Redis',
  E_SANDBOX_USER: 'a sandbox request named a user the sandbox does not simulate',
  E_FAKE_KUBE_API: 'the simulated API server was given a cluster or a kind it cannot serve',
  E_PATCH: 'the simulated API server cannot apply this patch',
  E_SELECTOR: 'the simulated API server cannot parse this label or field selector',
} as const;

/** A code of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;
