import type { IntegrationKindDefinition } from './definition.ts';
import { readWebhookAlerts } from './prometheus-alerts.ts';

/**
 * Prometheus Alertmanager's `webhook_configs` receiver (its body, version 4): one alert per
 * fingerprint; `firing` triggers, `resolved` resolves; severity from `labels.severity`.
 * (Alertmanager's `pagerduty_configs` reach the pagerduty kind instead.)
 */
export const alertmanagerKind: IntegrationKindDefinition = {
  kind: 'alertmanager',
  async read(body, { severityMap }) {
    return {
      kind: 'alerts',
      alerts: readWebhookAlerts(body, severityMap, (alert) => [{ href: alert.generatorURL, text: 'Source' }]),
    };
  },
};
