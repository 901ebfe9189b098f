/**
 * The severities of an outside alert (DECISIONS.md "Outside alerts (wave 6)", PagerDuty Events v2's
 * four): critical and error take the entity down, warning degrades it, info is recorded without a
 * state. Kept here, with the states they map to, so the item owners and the ingest share them.
 */
export const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
