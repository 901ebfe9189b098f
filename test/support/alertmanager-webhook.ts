/** One alert of Alertmanager's webhook, as the outside-alert tests send them. */
export interface WebhookAlert {
  fingerprint: string;
  status?: 'firing' | 'resolved';
  service: string;
  severity: string;
  summary: string;
  alertname?: string;
  /** Prometheus's link to the rule's graph, as Alertmanager passes it on. */
  generatorURL?: string;
}

/** Alertmanager's webhook body (version 4) carrying `alerts` (firing unless said). */
export function alertmanagerWebhook(alerts: readonly WebhookAlert[]) {
  const items = alerts.map((a) => ({
    status: a.status ?? 'firing',
    fingerprint: a.fingerprint,
    labels: { alertname: a.alertname ?? a.fingerprint, service: a.service, severity: a.severity },
    annotations: { summary: a.summary },
    ...(a.generatorURL ? { generatorURL: a.generatorURL } : {}),
  }));
  return {
    version: '4',
    status: items.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    alerts: items,
  };
}
