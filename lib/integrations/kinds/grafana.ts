import type { IntegrationKindDefinition } from './definition.ts';
import { readWebhookAlerts } from './prometheus-alerts.ts';

/**
 * Grafana alerting's webhook contact point: Alertmanager's body with Grafana's links (the rule, the
 * dashboard, the panel, a silence); severity from `labels.severity`, else critical.
 */
export const grafanaKind: IntegrationKindDefinition = {
  kind: 'grafana',
  async read(body, { severityMap }) {
    return {
      kind: 'alerts',
      alerts: readWebhookAlerts(body, severityMap, (alert) => [
        { href: alert.generatorURL, text: 'Alert rule' },
        { href: alert.dashboardURL, text: 'Dashboard' },
        { href: alert.panelURL, text: 'Panel' },
        { href: alert.silenceURL, text: 'Silence' },
      ]),
    };
  },
};
