import type { AlertReceiptStore } from '../../alertmanager/alert-receipt-store.js';
import type { PrometheusOnParent } from './post-alert.js';

/**
 * What a root cause's parent shows of its thread's Prometheus alerts: the tally, and the "Silence all alerts" menu when
 * the bot can silence (alertmanager.url is set).
 */
export async function prometheusOnParent(
  receipts: Pick<AlertReceiptStore, 'getTally'>,
  channel: string,
  threadTs: string,
  canSilence: boolean,
): Promise<PrometheusOnParent> {
  const { total, resolved } = await receipts.getTally(channel, threadTs);
  return { total, resolved, ...(canSilence ? { silence: { threadTs } } : {}) };
}
