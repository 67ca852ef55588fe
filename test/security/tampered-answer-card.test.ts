import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createAnswerCardStore, type AnswerCard } from '../../src/store/answer-card-store.js';
import { createRecordSeal } from '../../src/store/create-record-seal.js';
import { testSigner } from '../support/plan-secret.js';
import { useRedis } from '../support/use-redis.js';

/**
 * Attack: someone who can write Redis rewrites a remembered `/k8s-health` answer card so that the
 * "outdated" edit lands on another of the bot's messages (another ts or channel) or carries their
 * text. Sealed with the server secret, such a card is dropped and never handed to the editor.
 */
describe('answer card records a Redis writer changes are never edited', () => {
  const db = useRedis();
  const card: AnswerCard = {
    channel: 'C0INCIDENT',
    ts: '1700000000.000100',
    cluster: 'prod-east',
    fingerprints: ['fp-webhook'],
    postedAt: '2026-11-28T01:00:00.000Z',
    message: {
      text: 'prod-east: critical',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'prod-east: critical' } }],
    },
  };

  for (const [what, change] of [
    ['another message ts', (c: Record<string, unknown>) => ({ ...c, ts: '1700000000.999999' })],
    ['another channel', (c: Record<string, unknown>) => ({ ...c, channel: 'D0ATTACKER' })],
    ['attacker text', (c: Record<string, unknown>) => ({ ...c, message: { text: 'pay here', blocks: [] } })],
    [
      'the seal removed',
      (c: Record<string, unknown>) => {
        const { mac: _mac, ...rest } = c;
        return rest;
      },
    ],
  ] as const) {
    it(`a card rewritten to ${what} is dropped; the untouched one is handed over`, async () => {
      const keyPrefix = `t:${randomUUID()}:`;
      const tampered: string[] = [];
      const store = createAnswerCardStore(db.redis, {
        keyPrefix,
        seal: createRecordSeal(testSigner(), 'answer-card'),
        onTampered: (c) => tampered.push(c),
      });
      await store.remember(card);
      await store.remember({ ...card, ts: '1700000000.000200' });
      const key = `${keyPrefix}answer-cards:prod-east`;
      const field = `${card.channel}/${card.ts}`;
      const stored = JSON.parse((await db.redis.hget(key, field))!) as Record<string, unknown>;
      await db.redis.hset(key, field, JSON.stringify(change(stored)));

      const taken = await store.takeFor('prod-east', 'fp-webhook');
      expect(taken.map((c) => c.ts)).toEqual(['1700000000.000200']);
      expect(tampered).toEqual(['prod-east']);
    });
  }

  it('without the secret the records are plain (nothing to verify), as every sealed store behaves', async () => {
    const keyPrefix = `t:${randomUUID()}:`;
    const store = createAnswerCardStore(db.redis, { keyPrefix, seal: createRecordSeal(undefined, 'answer-card') });
    await store.remember(card);
    expect((await store.takeFor('prod-east', 'fp-webhook')).map((c) => c.ts)).toEqual([card.ts]);
  });
});
