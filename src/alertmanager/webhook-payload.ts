/**
 * Alertmanager's webhook payload, version "4" (what a `webhook_configs` receiver POSTs), reduced to
 * what the bot reads. Every string in it came from Prometheus rules and their targets: untrusted,
 * neutralized by whoever shows it (slack/render/).
 */

/** One alert of a notification. */
export interface AlertmanagerAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** RFC 3339; with the fingerprint, the identity of one firing of one alert. */
  startsAt: string;
  endsAt: string;
  generatorURL: string;
  /** Alertmanager's hash of the label set. */
  fingerprint: string;
}

/** One webhook notification as the bot keeps it: the alerts it takes and how many more arrived. */
export interface AlertmanagerNotification {
  /** Alertmanager's group key (the route and the grouping labels). */
  groupKey: string;
  receiver: string;
  status: 'firing' | 'resolved';
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  externalURL: string;
  /** At most `alertmanager.maxAlertsPerRequest`. */
  alerts: AlertmanagerAlert[];
  /** Alerts beyond `alertmanager.maxAlertsPerRequest`, not taken (the thread says how many). */
  overflow: number;
  /** Alertmanager's own count of alerts it left out (`truncatedAlerts`, its `max_alerts`). */
  truncatedAlerts: number;
  /** When the bot received it (ISO). */
  receivedAt: string;
}

/**
 * A notification as serve queues it: the body as received, already checked by parse-webhook.ts, and what reading it
 * again needs. Queuing the text as it came costs serve no second serialization on its answer path; the alerts
 * worker reads it again (a few hundred microseconds, off that path).
 */
export interface QueuedWebhook {
  body: string;
  receivedAt: string;
  /** alertmanager.maxAlertsPerRequest when it was received (the overflow counted in the job id). */
  maxAlerts: number;
}
