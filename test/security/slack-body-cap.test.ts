import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/diagnose/finding.js';
import type { Report } from '../../src/report/report.js';
import { renderAppHome } from '../../src/slack/render/render-app-home.js';
import { proposalKey, renderBlocks } from '../../src/slack/render/render-blocks.js';
import { renderDetails } from '../../src/slack/render/render-details.js';
import { SLACK_BODY_LIMIT } from '../../src/slack/receive/slack-http-limits.js';
import { HOSTILE_ALL } from '../support/hostile-text.js';

/**
 * The largest text our renderers could be given: every character one that grows the most on the way
 * to Slack and back (escaped by the neutralizer, JSON-escaped, 3 UTF-8 bytes percent-encoded).
 */
const WIDE = `${HOSTILE_ALL} ${'€"<>&\\'.repeat(2000)}`;

function finding(n: number): Finding {
  return {
    id: 'webhook.unavailable-blocking',
    severity: 'critical',
    section: 'webhooks',
    title: WIDE,
    subject: { kind: WIDE, namespace: WIDE, name: WIDE },
    evidence: [WIDE, WIDE, WIDE, WIDE],
    cause: WIDE,
    since: '2025-03-01T09:00:00Z',
    missing: [WIDE, WIDE],
    confidence: 'medium',
    remediations: [
      { action: 'deployment.scale', params: { namespace: WIDE, name: WIDE, replicas: 0 }, label: WIDE, risk: WIDE },
      { action: 'webhook.suspend', params: { kind: 'Validating', name: WIDE }, label: WIDE, risk: WIDE },
    ],
    steps: [WIDE, WIDE],
    fingerprint: `fp-${n}`,
  };
}

const findings = Array.from({ length: 60 }, (_, i) => finding(i));
const report: Report = {
  cluster: WIDE,
  generatedAt: '2025-03-01T09:00:00Z',
  collectedAt: '2025-03-01T09:00:00Z',
  status: 'critical',
  sections: ['webhooks', 'nodes', 'etcd', 'machines', 'workloads', 'apiserver'].map((id) => ({
    id,
    status: 'critical',
    summary: WIDE,
  })) as Report['sections'],
  findings,
  partial: Array.from({ length: 20 }, () => ({ source: WIDE, error: WIDE })),
};

/** A request body as Slack sends it to us when someone clicks in that message or view: the whole of it rides along. */
function clickBody(container: { message?: unknown; view?: unknown }): number {
  const payload = {
    type: 'block_actions',
    user: { id: 'U0PAT', username: 'pat', name: 'pat', team_id: 'T0TEAM' },
    api_app_id: 'A0APP',
    token: 'x'.repeat(24),
    trigger_id: '1.2.3',
    team: { id: 'T0TEAM', domain: 'example' },
    enterprise: null,
    is_enterprise_install: false,
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0', is_ephemeral: false },
    channel: { id: 'C0', name: 'incident' },
    response_url: `https://hooks.slack.com/actions/T0TEAM/${'1'.repeat(13)}/${'x'.repeat(24)}`,
    actions: [
      {
        action_id: 'k8s-health.propose-fix.0',
        block_id: 'b',
        value: 'p_'.padEnd(40, 'x'),
        type: 'button',
        action_ts: '1700000000.1',
      },
    ],
    state: { values: {} },
    ...(container.message
      ? {
          message: {
            type: 'message',
            user: 'U0BOT',
            ts: '1700000000.000100',
            bot_id: 'B0BOT',
            app_id: 'A0APP',
            team: 'T0TEAM',
            ...(container.message as object),
          },
        }
      : {}),
    ...(container.view
      ? {
          view: {
            id: 'V0',
            team_id: 'T0TEAM',
            app_id: 'A0APP',
            bot_id: 'B0BOT',
            hash: '1.x',
            state: { values: {} },
            ...(container.view as object),
          },
        }
      : {}),
  };
  return Buffer.byteLength(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
}

describe('the Slack route body cap', () => {
  it('is at least twice the largest body Slack can send back to us with our own messages and views, and at most 1 MiB', () => {
    const proposalIds = Object.fromEntries(
      findings.flatMap((f) => [0, 1].map((i) => [proposalKey(f, i), `p_${f.fingerprint}_${i}`.padEnd(40, 'x')])),
    );
    const sizes = {
      answer: clickBody({
        message: renderBlocks(report, { now: new Date('2025-03-01T10:00:00Z'), stale: true, note: WIDE, proposalIds }),
      }),
      details: clickBody({ message: renderDetails(report, { stale: true, note: WIDE }) }),
      appHome: clickBody({
        view: renderAppHome(
          'U0ALICE',
          Array.from({ length: 60 }, (_, i) => ({
            name: `${WIDE}${i}`,
            report,
            waiting: Array.from({ length: 9 }, () => ({
              label: WIDE,
              proposer: 'U0PAT',
              expiresAt: '2025-03-01T10:30:00Z',
              link: 'https://example.slack.com/archives/C0/p1',
            })),
          })),
          '2025-03-01T10:00:00Z',
        ),
      }),
    };
    const largest = Math.max(...Object.values(sizes));
    // What the measurement found (printed on failure, and the figure docs/security.md quotes).
    // Twice the measure (rounded up to 32 KiB), never more than 1 MiB; a renderer that grows past half the cap fails
    // here.
    expect({
      sizes,
      largest,
      limit: SLACK_BODY_LIMIT,
      ok:
        SLACK_BODY_LIMIT >= 2 * largest &&
        SLACK_BODY_LIMIT <= 2 * largest + 32 * 1024 &&
        SLACK_BODY_LIMIT <= 1024 * 1024,
    }).toMatchObject({ ok: true });
  });
});
