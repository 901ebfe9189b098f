import type { Schemas } from '../api/client';

/**
 * Incidents in words: states, durations and each timeline step as a sentence, so the pages never
 * show a bare code where a person reads.
 */

export type Incident = Schemas['Incident'];
export type IncidentDetail = Schemas['IncidentDetail'];
export type TimelineEntry = IncidentDetail['timeline'][number];

/** An incident's state as its badge says it, and the badge's colour (never colour alone). */
export const INCIDENT_STATE: Record<Incident['state'], { words: string; className: string }> = {
  open: { words: 'open', className: 'state-down' },
  acknowledged: { words: 'acknowledged', className: 'state-degraded' },
  resolved: { words: 'resolved', className: 'state-up' },
};

/** A length of time for reading: "45 s", "3 min 20 s", "2 h 5 min", "3 d 4 h". */
export function durationInWords(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const seconds = s % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
  return `${seconds} s`;
}

/** The mean time to resolve of the resolved incidents among `incidents`, or undefined when none is. */
export function meanTimeToResolve(
  incidents: readonly Incident[],
): { seconds: number; of: number } | undefined {
  const resolved = incidents.filter((i) => i.state === 'resolved');
  if (resolved.length === 0) return undefined;
  const total = resolved.reduce((sum, i) => sum + i.duration_seconds, 0);
  return { seconds: Math.round(total / resolved.length), of: resolved.length };
}

const ALERT_KIND: Record<Extract<TimelineEntry, { type: 'alert' }>['kind'], string> = {
  alert: 'Alert',
  repeat: 'Reminder (still down)',
  test: 'Test alert',
  escalation: 'Escalation (unacknowledged)',
  flapping: 'Flapping notice',
};

/** An alert step: "Alert sent via webhook", "Alert skipped: maintenance: deploy". */
export function alertInWords(e: Extract<TimelineEntry, { type: 'alert' }>): string {
  const via = e.channel_type ? ` via ${e.channel_type}` : '';
  const kind = ALERT_KIND[e.kind];
  switch (e.status) {
    case 'sent':
      return `${kind} sent${via}`;
    case 'skipped':
      return `${kind} skipped${via}: ${e.reason ?? 'no reason given'}`;
    case 'failed':
      return `${kind} failed${via}`;
    case 'retrying':
      return `${kind} being retried${via}`;
    case 'pending':
      return `${kind} waiting to be sent${via}`;
    default:
      return `${kind} ${e.status}${via}`;
  }
}

/** An action run step's outcome: "dispatched (HTTP 200)". */
export function actionOutcome(e: Extract<TimelineEntry, { type: 'action' }>): string {
  const status = e.dispatch_status.replace(/_/g, ' ');
  return e.status_code === null ? status : `${status} (HTTP ${e.status_code})`;
}

/** UTF-8 bytes of a note (the API's 4 KB bound counts bytes, not characters). */
export function noteBytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The API's bound on a note, in bytes (docs/api.md "Incidents"). */
export const NOTE_MAX_BYTES = 4096;
