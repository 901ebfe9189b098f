import { createHash } from 'node:crypto';
import type { AlertSeverity } from '../../domain/states.ts';
import { clipText } from '../../platform/errors.ts';

/**
 * An outside alert as a sender's request states it, whatever the kind (DECISIONS.md "Outside
 * alerts (wave 6)"): each kind's reader (kinds/) turns its wire format into these, and the service
 * stores them. Texts are clipped to bounds here, never refused for their length: a sender such as
 * Alertmanager cannot shorten an annotation, and refusing would only make it retry for ever.
 */

export { ALERT_SEVERITIES as SEVERITIES } from '../../domain/states.ts';
export type Severity = AlertSeverity;

export type AlertAction = 'trigger' | 'acknowledge' | 'resolve';

export interface AlertLink {
  href: string;
  text: string;
}

export interface IncomingAlert {
  /** What makes two requests the same alert (a fingerprint, a dedup_key, an alarm's ARN, the generic key). */
  dedup_key: string;
  action: AlertAction;
  /** Undefined on an acknowledge or a resolve that does not restate it. */
  severity: Severity | undefined;
  summary: string;
  /** The host or service the sender names as the alert's origin, when it names one. */
  source: string | undefined;
  labels: Record<string, string>;
  links: AlertLink[];
  /** When the sender says the alert started (or ended, for a resolve), ISO UTC, when it says. */
  at: string | undefined;
}

/** The bounds every alert is clipped to (docs/integrations.md "Bounds"). */
export const ALERT_BOUNDS = {
  dedupKey: 255,
  summary: 1024,
  source: 255,
  labels: 64,
  labelName: 100,
  labelValue: 1000,
  links: 10,
  href: 2048,
  linkText: 100,
  /** Alerts in one request; more is 413 (docs/integrations.md). */
  alertsPerRequest: 1000,
} as const;

/**
 * Common names for severities, beyond the four: what Alertmanager rules, Grafana and monitoring
 * tools write in a `severity` label (`page`, `high`, `P2`, `warn`). A name not here and not in the
 * integration's `severity_map` takes the kind's default.
 */
const SEVERITY_WORDS: Record<string, Severity> = {
  critical: 'critical',
  crit: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  page: 'critical',
  p1: 'critical',
  error: 'error',
  err: 'error',
  high: 'error',
  major: 'error',
  p2: 'error',
  warning: 'warning',
  warn: 'warning',
  medium: 'warning',
  minor: 'warning',
  p3: 'warning',
  info: 'info',
  informational: 'info',
  notice: 'info',
  low: 'info',
  none: 'info',
  p4: 'info',
  p5: 'info',
};

/**
 * The Vigil severity of a sender's word: the integration's `severity_map` first (its keys as the
 * sender writes them, compared without case), then the common words, else `fallback`.
 */
export function severityOf(
  word: string | undefined,
  severityMap: Readonly<Record<string, Severity>>,
  fallback: Severity,
): Severity {
  if (word === undefined) return fallback;
  const lower = word.trim().toLowerCase();
  for (const [key, value] of Object.entries(severityMap)) if (key.toLowerCase() === lower) return value;
  return SEVERITY_WORDS[lower] ?? fallback;
}

/** Labels as stored: string values, at most 64, names and values clipped; other values as JSON text. */
export function boundedLabels(raw: Readonly<Record<string, unknown>>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw).slice(0, ALERT_BOUNDS.labels)) {
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    labels[clipText(name, ALERT_BOUNDS.labelName)] = clipText(text, ALERT_BOUNDS.labelValue);
  }
  return labels;
}

/**
 * The links kept: http(s) URLs only (a link is shown in the console and in messages, so a
 * `javascript:` or `data:` one is dropped), at most 10, clipped texts; an empty href is no link.
 */
export function boundedLinks(raw: readonly { href: string | undefined; text: string }[]): AlertLink[] {
  const links: AlertLink[] = [];
  for (const { href, text } of raw) {
    if (!href || href.length > ALERT_BOUNDS.href || links.length >= ALERT_BOUNDS.links) continue;
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
    links.push({ href: url.href, text: clipText(text, ALERT_BOUNDS.linkText) });
  }
  return links;
}

/** An alert with its texts clipped to ALERT_BOUNDS. */
export function boundedAlert(alert: IncomingAlert): IncomingAlert {
  return {
    ...alert,
    // A longer key is hashed, not clipped: two keys that differ only past the bound stay two alerts.
    dedup_key:
      alert.dedup_key.length <= ALERT_BOUNDS.dedupKey
        ? alert.dedup_key
        : `sha256:${createHash('sha256').update(alert.dedup_key).digest('hex')}`,
    summary: clipText(alert.summary.trim() || alert.dedup_key, ALERT_BOUNDS.summary),
    source: alert.source === undefined ? undefined : clipText(alert.source, ALERT_BOUNDS.source),
  };
}

/** An ISO time the sender gave, in UTC, or undefined when it is none (or Go's zero time). */
export function senderTime(value: string | undefined): string | undefined {
  if (!value || value.startsWith('0001-01-01')) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
