import { createHash } from 'node:crypto';
import * as z from 'zod';
import { parseInput } from '../../http/requests.ts';
import {
  ALERT_BOUNDS,
  type AlertLink,
  boundedAlert,
  boundedLabels,
  boundedLinks,
  type IncomingAlert,
  type Severity,
  senderTime,
  severityOf,
} from './incoming.ts';

/**
 * Alertmanager's webhook body (version 4) and Grafana alerting's, which is Alertmanager's with a few
 * fields more: both kinds read it here, each naming the links it has. Unknown fields are kept out,
 * never refused: senders add fields between releases.
 */

const stringMap = z.record(z.string(), z.string());

const alertSchema = z.object({
  status: z.enum(['firing', 'resolved']),
  labels: stringMap.default({}),
  annotations: stringMap.default({}),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().min(1).optional(),
  // Grafana's.
  silenceURL: z.string().optional(),
  dashboardURL: z.string().optional(),
  panelURL: z.string().optional(),
});

const webhookBodySchema = z.object({
  version: z.string().optional(),
  status: z.enum(['firing', 'resolved']).optional(),
  alerts: z.array(alertSchema).max(ALERT_BOUNDS.alertsPerRequest),
  externalURL: z.string().optional(),
});

export type WebhookAlert = z.output<typeof alertSchema>;

/** Alertmanager's own fingerprint when the body has it, else a hash of the sorted labels (what it hashes). */
function fingerprintOf(alert: WebhookAlert): string {
  if (alert.fingerprint) return alert.fingerprint;
  const sorted = Object.entries(alert.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `labels:${createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 32)}`;
}

/** Reads a webhook body into alerts; `linksOf` names the kind's links, `fallback` its default severity. */
export function readWebhookAlerts(
  body: unknown,
  severityMap: Readonly<Record<string, Severity>>,
  linksOf: (alert: WebhookAlert) => { href: string | undefined; text: string }[],
): IncomingAlert[] {
  const parsed = parseInput(webhookBodySchema, body);
  return parsed.alerts.map((alert) => {
    const firing = alert.status === 'firing';
    const { annotations, labels } = alert;
    const links: AlertLink[] = boundedLinks([
      ...linksOf(alert),
      { href: annotations.runbook_url, text: 'Runbook' },
    ]);
    return boundedAlert({
      dedup_key: fingerprintOf(alert),
      action: firing ? 'trigger' : 'resolve',
      // A rule without a severity label pages: an alert someone wrote is meant to be seen.
      severity: severityOf(labels.severity, severityMap, 'critical'),
      summary:
        annotations.summary ?? annotations.description ?? annotations.message ?? labels.alertname ?? '',
      source: labels.instance ?? labels.job,
      labels: boundedLabels(labels),
      links,
      at: senderTime(firing ? alert.startsAt : alert.endsAt),
    });
  });
}
