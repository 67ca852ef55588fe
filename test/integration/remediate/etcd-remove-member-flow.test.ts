import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Etcd3 } from 'etcd3';
import { freePort } from '../../support/free-port.js';
import { startApprovalBot, type ApprovalBot } from '../../support/start-approval-bot.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';

let etcd: EtcdTestCluster;
let bot: ApprovalBot;

beforeAll(async () => {
  etcd = await startEtcdCluster();
  bot = await startApprovalBot({ etcdEndpoints: etcd.endpoints });
}, 90_000);

afterAll(async () => {
  await bot?.stop();
  await etcd?.stopAll();
});

/** The live member list and leader, read from the first endpoint that answers. */
async function readEtcd(): Promise<{ leader: string; members: { ID: string; name: string }[] }> {
  for (const endpoint of etcd.endpoints) {
    const client = new Etcd3({ hosts: endpoint, dialTimeout: 2000 });
    try {
      const status = await client.maintenance.status();
      const members = (await client.cluster.memberList({ linearizable: true })).members;
      return { leader: status.leader, members: members.map((m) => ({ ID: m.ID, name: m.name })) };
    } catch {
      // a killed member: try the next endpoint
    } finally {
      client.close();
    }
  }
  throw new Error('no etcd endpoint answers');
}

/**
 * Add a member that never starts. etcd's strict reconfig check refuses "unhealthy cluster" until every
 * member has been connected for its health interval (5 s) after start, so retry until it accepts.
 */
async function addStaleMember(): Promise<string> {
  const peer = `http://127.0.0.1:${await freePort()}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    // A fresh client per try: etcd3's circuit breaker stays open after one failure (docs/development.md, "Stack
    // notes").
    const client = new Etcd3({ hosts: etcd.endpoints[0]! });
    try {
      return (await client.cluster.memberAdd({ peerURLs: [peer] })).member.ID;
    } catch (err) {
      if (!String(err).includes('unhealthy cluster') || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      client.close();
    }
  }
}

const removeMember = (memberId: string) => ({
  action: 'etcd.remove-member' as const,
  params: { memberId },
  label: `Remove etcd member ${memberId}`,
  risk: 'r',
});

describe('etcd.remove-member against a real 3-member etcd', () => {
  it('removes a stale 4th member (etcd.member-mismatch: added, never started), sent to the leader', async () => {
    const staleId = await addStaleMember();
    expect((await readEtcd()).members).toHaveLength(4);

    const { requestId, message, request } = await bot.runApproved(removeMember(staleId));
    expect(JSON.stringify(message.body.blocks)).toContain(
      `read-only check ok: member ${staleId} can be removed with quorum kept`,
    );
    expect(JSON.stringify(message.body.blocks)).toContain('(recorded: 4)');
    expect(request.status).toBe('succeeded');
    expect(request.result).toContain(`etcd member ${staleId} removed (request sent to the leader`);
    const after = await readEtcd();
    expect(after.members.map((m) => m.ID)).not.toContain(staleId);
    expect(after.members.map((m) => m.name).sort()).toEqual(['e1', 'e2', 'e3']);
    expect((await bot.resultMessage(requestId)).body.thread_ts).toBe('1700000000.000100');
  }, 60_000);

  it('refuses the leader: the read-only check fails, so the request cannot be approved', async () => {
    const { leader } = await readEtcd();
    const { requestId, message } = await bot.propose(removeMember(leader));
    expect(JSON.stringify(message!.body.blocks)).toContain(
      `dry run failed: read-only check failed: member ${leader} is the leader: move leadership first`,
    );
    expect(await bot.vote(requestId!, 'U0ANN')).toContain('dry run of this plan failed');
    expect((await bot.approvals.get(requestId!))!.approvals).toEqual([]);
    expect((await readEtcd()).members).toHaveLength(3);
  }, 60_000);

  it('aborts when quorum would be lost: a member died between the proposal and the decisive approval', async () => {
    const { leader, members } = await readEtcd();
    const [target, other] = members.filter((m) => m.ID !== leader);
    const { requestId, message } = await bot.propose(removeMember(target!.ID));
    // Proposed while all three are healthy: the check passes then.
    expect(JSON.stringify(message!.body.blocks)).toContain('read-only check ok');
    await bot.vote(requestId!, 'U0ANN');
    await etcd.kill(etcd.members.findIndex((m) => m.name === other!.name));
    await bot.vote(requestId!, 'U0BEN');
    const done = await bot.waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('aborted');
    expect(done.result).toContain(
      `only 1 of the 2 remaining voting members are healthy: removing ${target!.ID} would leave no quorum`,
    );
    expect((await readEtcd()).members.map((m) => m.ID)).toContain(target!.ID);
  }, 60_000);
});
