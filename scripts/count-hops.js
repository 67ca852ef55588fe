#!/usr/bin/env node
/**
 * Counts the hops of the three flows of docs/architecture.md — a `/k8s-health` command, a background
 * scan, an approval — at three points: before the layers pointed one way (git revision BEFORE_REV),
 * before a feature had one home (START_REV), and now (the working tree), and checks every hop against
 * the code, so the counts cannot drift from it:
 *
 *   node scripts/count-hops.js            # table
 *   node scripts/count-hops.js --verbose  # every step and hop
 *   node scripts/count-hops.js --json
 *
 * How a flow is counted. A flow is the ordered list of steps a reader follows from the request's entry
 * to its effect: each step is a file and the function in it that does a piece of the work (checks,
 * decides, reads or writes a store, analyzes, renders, posts, enqueues). Returning to a caller is not a
 * step; visiting a file again later is. Pure helpers for text, ids, keys, formatting and types are
 * not steps. A hop is one step to the next. The script checks that each step's file exists at that
 * revision and defines that function, and that each hop is real: the two files import one another
 * (the caller imports the step's file), or the step takes the queue's job (`queue:NAME`), or Bolt
 * dispatches to a listener (`bolt`), or the caller calls a function the composition root gave it
 * (`injected:FILE`). Also counted: layer changes (consecutive steps in different folders), returns
 * (the reader goes back up to a caller before the next step: the back-and-forth) and backward calls
 * (a file calling into a higher layer: docs/architecture.md "Layers", test/unit/layers.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const BEFORE_REV = '7100f0a';
/**
 * The one-home-per-feature restructure (use cases out of the Slack adapter, approvals/, slack/ by role) started here.
 */
const START_REV = 'd7754fc';
const LAYERS = [
  'errors',
  'text',
  'log',
  'config',
  'cluster',
  'diagnose',
  'report',
  'alerts',
  'remediate',
  'approvals',
  'store',
  'timeline',
  'scan',
  'slack',
  'jobs',
  'compose',
  'sandbox',
  'cli',
];

/**
 * [file under src/, function, caller]: `caller` is the file whose code calls this step (it imports
 * it), or `bolt` (Bolt dispatches to a listener), `queue:NAME` (a BullMQ job), or `injected:FILE`
 * (FILE calls a function it was given by the composition root).
 */
const FLOWS = {
  command: {
    title: '/k8s-health CLUSTER answered from the stored report (a stale one also requests a scan)',
    before: [
      ['slack/create-checked-receiver.ts', 'createCheckedReceiver', 'bolt'],
      ['slack/check-slack-request.ts', 'checkSlackRequest', 'slack/create-checked-receiver.ts'],
      ['slack/create-replay-guard.ts', 'createReplayGuard', 'bolt'],
      ['slack/handle-health-command.ts', 'handleHealthCommand', 'bolt'],
      ['slack/parse-command.ts', 'parseCommand', 'slack/handle-health-command.ts'],
      ['store/report-store.ts', 'createReportStore', 'injected:slack/handle-health-command.ts'],
      ['report/render-blocks.ts', 'detailedFindings', 'slack/handle-health-command.ts'],
      ['slack/proposal-store.ts', 'createProposalStore', 'injected:slack/handle-health-command.ts'],
      ['report/render-blocks.ts', 'renderBlocks', 'slack/handle-health-command.ts'],
      ['slack/clamp-blocks.ts', 'clampBlocks', 'report/render-blocks.ts'],
      ['slack/post-answer.ts', 'postAnswer', 'slack/handle-health-command.ts'],
      ['slack/create-scan-requester.ts', 'createScanRequester', 'injected:slack/handle-health-command.ts'],
      ['cli/run-serve.ts', 'runServe', 'injected:slack/create-scan-requester.ts'],
      ['jobs/start-workers.ts', 'startWorkers', 'cli/run-serve.ts'],
      ['jobs/create-queued-scan.ts', 'createQueuedScan', 'jobs/start-workers.ts'],
    ],
    start: [
      ['slack/create-checked-receiver.ts', 'createCheckedReceiver', 'bolt'],
      ['slack/check-slack-request.ts', 'checkSlackRequest', 'slack/create-checked-receiver.ts'],
      ['slack/create-replay-guard.ts', 'createReplayGuard', 'bolt'],
      ['slack/handle-health-command.ts', 'handleHealthCommand', 'bolt'],
      ['slack/parse-command.ts', 'parseCommand', 'slack/handle-health-command.ts'],
      ['store/report-store.ts', 'createReportStore', 'injected:slack/handle-health-command.ts'],
      ['slack/render-blocks.ts', 'detailedFindings', 'slack/handle-health-command.ts'],
      ['store/proposal-store.ts', 'createProposalStore', 'injected:slack/handle-health-command.ts'],
      ['slack/render-blocks.ts', 'renderBlocks', 'slack/handle-health-command.ts'],
      ['slack/clamp-blocks.ts', 'clampBlocks', 'slack/render-blocks.ts'],
      ['slack/post-answer.ts', 'postAnswer', 'slack/handle-health-command.ts'],
      ['slack/create-scan-requester.ts', 'createScanRequester', 'injected:slack/handle-health-command.ts'],
      ['cli/run-serve.ts', 'runServe', 'injected:slack/create-scan-requester.ts'],
      ['jobs/create-queued-scan.ts', 'createQueuedScan', 'injected:cli/run-serve.ts'],
    ],
    after: [
      ['slack/receive/create-checked-receiver.ts', 'createCheckedReceiver', 'bolt'],
      ['slack/receive/check-slack-request.ts', 'checkSlackRequest', 'slack/receive/create-checked-receiver.ts'],
      ['slack/receive/create-replay-guard.ts', 'createReplayGuard', 'bolt'],
      ['slack/handle/handle-health-command.ts', 'handleHealthCommand', 'bolt'],
      ['slack/receive/parse-command.ts', 'parseCommand', 'slack/handle/handle-health-command.ts'],
      ['store/report-store.ts', 'createReportStore', 'injected:slack/handle/handle-health-command.ts'],
      ['slack/render/render-blocks.ts', 'detailedFindings', 'slack/handle/handle-health-command.ts'],
      ['store/proposal-store.ts', 'createProposalStore', 'injected:slack/handle/handle-health-command.ts'],
      ['slack/render/render-blocks.ts', 'renderBlocks', 'slack/handle/handle-health-command.ts'],
      ['slack/render/clamp-blocks.ts', 'clampBlocks', 'slack/render/render-blocks.ts'],
      ['slack/post/post-answer.ts', 'postAnswer', 'slack/handle/handle-health-command.ts'],
      [
        'slack/handle/create-scan-requester.ts',
        'createScanRequester',
        'injected:slack/handle/handle-health-command.ts',
      ],
      ['cli/run-serve.ts', 'runServe', 'injected:slack/handle/create-scan-requester.ts'],
      ['jobs/create-queued-scan.ts', 'createQueuedScan', 'injected:cli/run-serve.ts'],
    ],
  },
  scan: {
    title: 'a scheduled scan of a live cluster, to the reply in its alert thread',
    before: [
      ['jobs/schedule-scans.ts', 'scheduleScans', 'jobs/start-workers.ts'],
      ['jobs/start-workers.ts', 'startWorkers', 'queue:SCAN_QUEUE'],
      ['jobs/run-scan-job.ts', 'runScanJob', 'jobs/start-workers.ts'],
      ['jobs/scan-cluster.ts', 'scanCluster', 'jobs/run-scan-job.ts'],
      ['cluster/read-snapshot.ts', 'readSnapshot', 'jobs/scan-cluster.ts'],
      ['cluster/collect-snapshot.ts', 'collectSnapshot', 'cluster/read-snapshot.ts'],
      ['diagnose/diagnose-snapshot.ts', 'diagnoseSnapshot', 'jobs/scan-cluster.ts'],
      ['store/redis-history.ts', 'RedisHistory', 'injected:diagnose/diagnose-snapshot.ts'],
      ['diagnose/analyze-snapshot.ts', 'analyzeSnapshot', 'diagnose/diagnose-snapshot.ts'],
      ['diagnose/record-scan.ts', 'recordScan', 'diagnose/diagnose-snapshot.ts'],
      ['store/redis-history.ts', 'RedisHistory', 'injected:diagnose/diagnose-snapshot.ts'],
      ['report/build-report.ts', 'buildReport', 'diagnose/diagnose-snapshot.ts'],
      ['store/report-store.ts', 'createReportStore', 'injected:jobs/run-scan-job.ts'],
      ['store/alert-state-store.ts', 'createAlertStateStore', 'injected:jobs/run-scan-job.ts'],
      ['jobs/analyze-alert-changes.ts', 'analyzeAlertChanges', 'jobs/run-scan-job.ts'],
      ['store/alert-state-store.ts', 'createAlertStateStore', 'injected:jobs/run-scan-job.ts'],
      ['store/alert-thread-store.ts', 'createAlertThreadStore', 'injected:jobs/run-scan-job.ts'],
      ['jobs/enqueue-notify.ts', 'enqueueNotify', 'jobs/run-scan-job.ts'],
      ['jobs/start-workers.ts', 'startWorkers', 'queue:NOTIFY_QUEUE'],
      ['slack/post-alert.ts', 'postAlert', 'jobs/start-workers.ts'],
      ['store/alert-lock.ts', 'withAlertLock', 'slack/post-alert.ts'],
      ['store/alert-state-store.ts', 'createAlertStateStore', 'injected:slack/post-alert.ts'],
      ['store/alert-thread-store.ts', 'createAlertThreadStore', 'injected:slack/post-alert.ts'],
      ['slack/proposal-store.ts', 'createProposalStore', 'injected:slack/post-alert.ts'],
      ['slack/render-alert.ts', 'renderAlertReply', 'slack/post-alert.ts'],
      ['jobs/create-channel-limiter.ts', 'createChannelLimiter', 'slack/post-alert.ts'],
      ['store/alert-thread-store.ts', 'createAlertThreadStore', 'injected:slack/post-alert.ts'],
    ],
    // The alert transition is applied by the state store's compare-and-set loop (updateAlertState), the
    // scan job takes its queue itself and no longer reads thread records (every incident's latest change
    // is handed over; idempotent job ids), and a poster opens a thread in one call (lock, incident and
    // record: store/alert-thread-store.ts withThread). On a reply the proposal store is not visited
    // (the parent's fix ids are in the thread record; a new fix is stored only when one appears).
    start: [
      ['jobs/schedule-scans.ts', 'scheduleScans', 'jobs/start-workers.ts'],
      ['jobs/run-scan-job.ts', 'runScanJob', 'queue:SCAN_QUEUE'],
      ['scan/scan-cluster.ts', 'scanCluster', 'jobs/run-scan-job.ts'],
      ['cluster/read-snapshot.ts', 'readSnapshot', 'scan/scan-cluster.ts'],
      ['cluster/live/collect-snapshot.ts', 'collectSnapshot', 'cluster/read-snapshot.ts'],
      ['scan/scan-snapshot.ts', 'scanSnapshot', 'scan/scan-cluster.ts'],
      ['store/redis-history.ts', 'RedisHistory', 'injected:scan/scan-snapshot.ts'],
      ['diagnose/analyze-snapshot.ts', 'analyzeSnapshot', 'scan/scan-snapshot.ts'],
      ['diagnose/record-scan.ts', 'recordScan', 'scan/scan-snapshot.ts'],
      ['store/redis-history.ts', 'RedisHistory', 'injected:scan/scan-snapshot.ts'],
      ['report/build-report.ts', 'buildReport', 'scan/scan-snapshot.ts'],
      ['store/report-store.ts', 'createReportStore', 'injected:jobs/run-scan-job.ts'],
      ['alerts/alert-state-store.ts', 'updateAlertState', 'jobs/run-scan-job.ts'],
      ['alerts/analyze-alert-changes.ts', 'analyzeAlertChanges', 'injected:alerts/alert-state-store.ts'],
      ['jobs/enqueue-notify.ts', 'enqueueNotify', 'jobs/run-scan-job.ts'],
      ['jobs/start-workers.ts', 'startWorkers', 'queue:NOTIFY_QUEUE'],
      ['slack/post-alert.ts', 'postAlert', 'jobs/start-workers.ts'],
      ['store/alert-thread-store.ts', 'createAlertThreadStore', 'injected:slack/post-alert.ts'],
      ['slack/render-alert.ts', 'renderAlertReply', 'slack/post-alert.ts'],
      ['slack/create-channel-limiter.ts', 'createChannelLimiter', 'injected:slack/post-alert.ts'],
      ['store/alert-thread-store.ts', 'createAlertThreadStore', 'injected:slack/post-alert.ts'],
    ],
    after: [
      ['jobs/schedule-scans.ts', 'scheduleScans', 'jobs/start-workers.ts'],
      ['jobs/workers/scan.ts', 'runScanJob', 'queue:SCAN_QUEUE'],
      ['scan/scan-cluster.ts', 'scanCluster', 'jobs/workers/scan.ts'],
      ['cluster/read-snapshot.ts', 'readSnapshot', 'scan/scan-cluster.ts'],
      ['cluster/live/collect-snapshot.ts', 'collectSnapshot', 'cluster/read-snapshot.ts'],
      ['scan/scan-snapshot.ts', 'scanSnapshot', 'scan/scan-cluster.ts'],
      ['store/redis-history.ts', 'RedisHistory', 'injected:scan/scan-snapshot.ts'],
      ['diagnose/analyze-snapshot.ts', 'analyzeSnapshot', 'scan/scan-snapshot.ts'],
      ['diagnose/record-scan.ts', 'recordScan', 'scan/scan-snapshot.ts'],
      ['store/redis-history.ts', 'RedisHistory', 'injected:scan/scan-snapshot.ts'],
      ['report/build-report.ts', 'buildReport', 'scan/scan-snapshot.ts'],
      ['store/report-store.ts', 'createReportStore', 'injected:jobs/workers/scan.ts'],
      ['alerts/alert-state-store.ts', 'updateAlertState', 'jobs/workers/scan.ts'],
      ['alerts/analyze-alert-changes.ts', 'analyzeAlertChanges', 'injected:alerts/alert-state-store.ts'],
      ['jobs/enqueue-notify.ts', 'enqueueNotify', 'jobs/workers/scan.ts'],
      ['jobs/workers/notify.ts', 'startNotifyWorker', 'queue:NOTIFY_QUEUE'],
      ['slack/post/post-alert.ts', 'postAlert', 'jobs/workers/notify.ts'],
      ['alerts/alert-thread-store.ts', 'createAlertThreadStore', 'injected:slack/post/post-alert.ts'],
      ['slack/render/render-alert.ts', 'renderAlertReply', 'slack/post/post-alert.ts'],
      ['slack/post/create-channel-limiter.ts', 'createChannelLimiter', 'injected:slack/post/post-alert.ts'],
      ['alerts/alert-thread-store.ts', 'createAlertThreadStore', 'injected:slack/post/post-alert.ts'],
    ],
  },
  approval: {
    title: 'a fix button, the request, two approvals, the run and its result in the thread',
    before: [
      ['slack/create-checked-receiver.ts', 'createCheckedReceiver', 'bolt'],
      ['slack/handle-propose-fix.ts', 'handleProposeFix', 'bolt'],
      ['slack/proposal-store.ts', 'createProposalStore', 'injected:slack/handle-propose-fix.ts'],
      ['remediate/actions/index.ts', 'findAction', 'slack/handle-propose-fix.ts'],
      ['slack/handle-approval-setup.ts', 'setupApprovals', 'injected:slack/handle-propose-fix.ts'],
      ['remediate/create-action-context.ts', 'createActionContext', 'slack/handle-approval-setup.ts'],
      ['remediate/actions/deployment-scale.ts', 'deploymentScale', 'injected:slack/handle-propose-fix.ts'],
      ['remediate/send-kube.ts', 'sendKube', 'remediate/actions/deployment-scale.ts'],
      ['cluster/kube-error.ts', 'toStatusError', 'remediate/send-kube.ts'],
      ['remediate/sign-request.ts', 'signRequest', 'slack/handle-propose-fix.ts'],
      ['slack/render-approval.ts', 'renderApproval', 'slack/handle-propose-fix.ts'],
      ['store/approval-store.ts', 'createApprovalStore', 'injected:slack/handle-propose-fix.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:slack/handle-propose-fix.ts'],
      ['slack/handle-approval-vote.ts', 'handleApprovalVote', 'bolt'],
      ['slack/handle-approval-authorizer.ts', 'createApprovalAuthorizer', 'injected:slack/handle-approval-vote.ts'],
      ['slack/check-approver-account.ts', 'createApproverAccountCheck', 'injected:slack/handle-approval-vote.ts'],
      ['store/approval-store.ts', 'createApprovalStore', 'injected:slack/handle-approval-vote.ts'],
      ['remediate/apply-vote.ts', 'applyVote', 'slack/handle-approval-vote.ts'],
      ['remediate/sign-vote.ts', 'signVote', 'slack/handle-approval-vote.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:slack/handle-approval-vote.ts'],
      ['slack/handle-approval-setup.ts', 'setupApprovals', 'injected:slack/handle-approval-vote.ts'],
      ['jobs/enqueue-remediation.ts', 'enqueueRemediation', 'slack/handle-approval-setup.ts'],
      ['jobs/remediate-worker.ts', 'startRemediateWorker', 'queue:REMEDIATE_QUEUE'],
      ['remediate/run-remediation.ts', 'runRemediation', 'jobs/remediate-worker.ts'],
      ['remediate/verify-approval.ts', 'verifyApproval', 'remediate/run-remediation.ts'],
      ['remediate/actions/deployment-scale.ts', 'deploymentScale', 'injected:remediate/run-remediation.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:remediate/run-remediation.ts'],
      ['slack/render-approval-result.ts', 'renderApprovalResult', 'jobs/remediate-worker.ts'],
    ],
    start: [
      ['slack/create-checked-receiver.ts', 'createCheckedReceiver', 'bolt'],
      ['slack/handle-propose-fix.ts', 'handleProposeFix', 'bolt'],
      ['store/proposal-store.ts', 'createProposalStore', 'injected:slack/handle-propose-fix.ts'],
      ['remediate/sign-proposal-click.ts', 'signProposalClick', 'slack/handle-propose-fix.ts'],
      ['jobs/create-proposal-requester.ts', 'createProposalRequester', 'injected:slack/handle-propose-fix.ts'],
      ['jobs/propose-worker.ts', 'startProposeWorker', 'queue:PROPOSE_QUEUE'],
      ['remediate/propose-fix.ts', 'proposeFix', 'jobs/propose-worker.ts'],
      ['remediate/actions/deployment-scale.ts', 'deploymentScale', 'injected:remediate/propose-fix.ts'],
      ['remediate/send-kube.ts', 'sendKube', 'remediate/actions/deployment-scale.ts'],
      ['cluster/live/send-kube.ts', 'sendKube', 'remediate/send-kube.ts'],
      ['remediate/sign-request.ts', 'signRequest', 'remediate/propose-fix.ts'],
      ['slack/post-approval-request.ts', 'postApprovalRequest', 'jobs/propose-worker.ts'],
      ['store/approval-store.ts', 'createApprovalStore', 'injected:remediate/propose-fix.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:remediate/propose-fix.ts'],
      ['slack/handle-approval-vote.ts', 'handleApprovalVote', 'bolt'],
      ['slack/handle-approval-authorizer.ts', 'createApprovalAuthorizer', 'injected:slack/handle-approval-vote.ts'],
      ['slack/check-approver-account.ts', 'createApproverAccountCheck', 'injected:slack/handle-approval-vote.ts'],
      ['store/approval-store.ts', 'createApprovalStore', 'injected:slack/handle-approval-vote.ts'],
      ['remediate/apply-vote.ts', 'applyVote', 'slack/handle-approval-vote.ts'],
      ['remediate/sign-vote.ts', 'signVote', 'slack/handle-approval-vote.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:slack/handle-approval-vote.ts'],
      ['jobs/enqueue-remediation.ts', 'enqueueRemediation', 'injected:slack/handle-approval-vote.ts'],
      ['jobs/remediate-worker.ts', 'startRemediateWorker', 'queue:REMEDIATE_QUEUE'],
      ['remediate/run-remediation.ts', 'runRemediation', 'jobs/remediate-worker.ts'],
      ['remediate/verify-approval.ts', 'verifyApproval', 'remediate/run-remediation.ts'],
      ['remediate/actions/deployment-scale.ts', 'deploymentScale', 'injected:remediate/run-remediation.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:remediate/run-remediation.ts'],
      ['slack/render-approval-result.ts', 'renderApprovalResult', 'jobs/remediate-worker.ts'],
    ],
    after: [
      ['slack/receive/create-checked-receiver.ts', 'createCheckedReceiver', 'bolt'],
      ['slack/handle/handle-propose-fix.ts', 'handleProposeFix', 'bolt'],
      ['store/proposal-store.ts', 'createProposalStore', 'injected:slack/handle/handle-propose-fix.ts'],
      ['approvals/request/sign-proposal-click.ts', 'signProposalClick', 'slack/handle/handle-propose-fix.ts'],
      ['jobs/create-proposal-requester.ts', 'createProposalRequester', 'injected:slack/handle/handle-propose-fix.ts'],
      ['jobs/workers/propose.ts', 'startProposeWorker', 'queue:PROPOSE_QUEUE'],
      ['approvals/request/propose-fix.ts', 'proposeFix', 'jobs/workers/propose.ts'],
      ['approvals/actions/deployment-scale.ts', 'deploymentScale', 'injected:approvals/request/propose-fix.ts'],
      ['approvals/execute/send-kube.ts', 'sendKube', 'approvals/actions/deployment-scale.ts'],
      ['cluster/live/send-kube.ts', 'sendKube', 'approvals/execute/send-kube.ts'],
      ['approvals/request/sign-request.ts', 'signRequest', 'approvals/request/propose-fix.ts'],
      ['slack/post/post-approval-request.ts', 'postApprovalRequest', 'jobs/workers/propose.ts'],
      ['store/approval-store.ts', 'createApprovalStore', 'injected:approvals/request/propose-fix.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:approvals/request/propose-fix.ts'],
      ['slack/handle/handle-approval-vote.ts', 'handleApprovalVote', 'bolt'],
      ['approvals/vote/cast-vote.ts', 'castVote', 'slack/handle/handle-approval-vote.ts'],
      [
        'slack/handle/handle-approval-authorizer.ts',
        'createApprovalAuthorizer',
        'injected:approvals/vote/cast-vote.ts',
      ],
      ['slack/handle/check-approver-account.ts', 'createApproverAccountCheck', 'injected:approvals/vote/cast-vote.ts'],
      ['store/approval-store.ts', 'createApprovalStore', 'injected:approvals/vote/cast-vote.ts'],
      ['approvals/vote/apply-vote.ts', 'applyVote', 'approvals/vote/cast-vote.ts'],
      ['approvals/vote/sign-vote.ts', 'signVote', 'approvals/vote/cast-vote.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:approvals/vote/cast-vote.ts'],
      ['jobs/enqueue-remediation.ts', 'enqueueRemediation', 'injected:approvals/vote/cast-vote.ts'],
      ['jobs/workers/remediate.ts', 'startRemediateWorker', 'queue:REMEDIATE_QUEUE'],
      ['approvals/execute/run-remediation.ts', 'runRemediation', 'jobs/workers/remediate.ts'],
      ['approvals/execute/verify-approval.ts', 'verifyApproval', 'approvals/execute/run-remediation.ts'],
      ['approvals/actions/deployment-scale.ts', 'deploymentScale', 'injected:approvals/execute/run-remediation.ts'],
      ['store/audit-log.ts', 'createAuditLog', 'injected:approvals/execute/run-remediation.ts'],
      ['slack/post/post-approval-result.ts', 'postApprovalResult', 'jobs/workers/remediate.ts'],
      ['slack/render/render-approval-result.ts', 'renderApprovalResult', 'slack/post/post-approval-result.ts'],
    ],
  },
};

const args = new Set(process.argv.slice(2));

/** The text of src/<file> at a revision (undefined: the working tree). */
function read(file, rev) {
  const p = `src/${file}`;
  if (!rev) return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
  try {
    return execFileSync('git', ['show', `${rev}:${p}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** Files a file imports (relative specifiers resolved to src/-relative .ts paths). */
function importsOf(file, text) {
  const out = new Set();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g))
    out.add(path.normalize(path.join(path.dirname(file), m[1])).replace(/\.js$/, '.ts'));
  return out;
}

const layer = (file) => file.split('/')[0];

function count(steps, rev) {
  const problems = [];
  const text = new Map();
  const source = (f) => {
    if (!text.has(f)) text.set(f, read(f, rev));
    return text.get(f);
  };
  let layerChanges = 0;
  let backward = 0;
  let returns = 0;
  const hops = [];
  for (const [i, [file, fn, caller]] of steps.entries()) {
    const t = source(file);
    if (t === undefined) problems.push(`${file} does not exist`);
    else if (!new RegExp(`(?:function|const|class|let)\\s+${fn}\\b`).test(t)) problems.push(`${file} defines no ${fn}`);
    let back = false;
    if (caller.startsWith('queue:')) {
      const q = caller.slice('queue:'.length);
      const names = (f) => (source(f) ?? '').includes(q);
      if (!names(file)) problems.push(`${file} takes no ${q} job`);
    } else if (caller.startsWith('injected:') || caller === 'bolt') {
      const c = caller.slice('injected:'.length);
      if (caller !== 'bolt' && source(c) === undefined) problems.push(`caller ${c} does not exist`);
    } else {
      if (source(caller) === undefined) problems.push(`caller ${caller} does not exist`);
      else if (!importsOf(caller, source(caller)).has(file)) problems.push(`${caller} does not import ${file}`);
      // A call into a higher layer: the bend a reader pays for.
      back = LAYERS.indexOf(layer(file)) > LAYERS.indexOf(layer(caller));
    }
    if (back) backward += 1;
    if (i === 0) continue;
    const prev = steps[i - 1][0];
    const by = caller.startsWith('injected:') ? caller.slice('injected:'.length) : caller;
    // The reader goes back up to the caller before this step: the back-and-forth within a flow.
    const isReturn = by !== prev && !caller.startsWith('queue:') && caller !== 'bolt';
    if (isReturn) returns += 1;
    if (layer(prev) !== layer(file)) layerChanges += 1;
    hops.push(`${prev} → ${file} (${caller}${isReturn ? ', after returning' : ''}${back ? ', BACKWARD' : ''})`);
  }
  return { hops: steps.length - 1, layerChanges, returns, backward, problems, steps: hops };
}

const WHENS = ['before', 'start', 'after'];
const result = {};
let failed = false;
for (const [name, flow] of Object.entries(FLOWS)) {
  result[name] = {
    title: flow.title,
    before: count(flow.before, BEFORE_REV),
    start: count(flow.start, START_REV),
    after: count(flow.after, undefined),
  };
  for (const when of WHENS) if (result[name][when].problems.length) failed = true;
}

if (args.has('--json')) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  process.stdout.write(
    `before = ${BEFORE_REV}, start = ${START_REV}, after = the working tree\nflow       hops              layer changes     returns           backward calls\n`,
  );
  for (const [name, r] of Object.entries(result)) {
    const cell = (k, w) =>
      WHENS.map((when) => r[when][k])
        .join(' → ')
        .padEnd(w);
    process.stdout.write(
      `${name.padEnd(10)} ${cell('hops', 17)} ${cell('layerChanges', 17)} ${cell('returns', 17)} ${cell('backward', 8)}\n`,
    );
    if (args.has('--verbose'))
      for (const when of WHENS)
        process.stdout.write(`  ${when}:\n${r[when].steps.map((s, i) => `    ${i + 1}. ${s}`).join('\n')}\n`);
    for (const when of WHENS) for (const p of r[when].problems) process.stdout.write(`  ! ${name} ${when}: ${p}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
