import type { AlertLink, IncomingAlert, Severity } from '../kinds/incoming.ts';

/**
 * An outside alert's life (DECISIONS.md "Outside alerts (wave 6)"), as pure functions the service
 * applies to the stored alert: one alert per (integration, dedup key); a trigger opens it or
 * retriggers it (counted, never a second alert), a resolve closes it, a trigger after that reopens
 * it; an acknowledge holds it open but acknowledged. A request that arrives late loses: when the
 * sender dates its events (Alertmanager's startsAt and endsAt, CloudWatch's StateChangeTime,
 * PagerDuty's timestamp), an event dated before the last one applied changes nothing, so a
 * retried `firing` that arrives after its `resolved` does not reopen the alert.
 */

type OutsideStatus = 'triggered' | 'acknowledged' | 'resolved';

export interface OutsideAlertState {
  status: OutsideStatus;
  severity: Severity;
  summary: string;
  source: string | null;
  labels: Record<string, string>;
  links: AlertLink[];
  /** When Vigil first heard of the alert. */
  first_at: string;
  /** When Vigil last heard a trigger of it. */
  last_at: string;
  resolved_at: string | null;
  /** Triggers heard: the first and each retrigger. */
  count: number;
  /** The sender's time of the last trigger or resolve applied (what a late event is judged by). */
  sender_at: string | null;
}

type Change =
  | 'opened'
  | 'retriggered'
  | 'reopened'
  | 'acknowledged'
  | 'resolved'
  | 'unchanged'
  | 'unknown'
  | 'late';

/** What an event does to the alert: its next state (undefined: nothing to store) and what changed. */
export interface Applied {
  next: OutsideAlertState | undefined;
  change: Change;
}

function isLate(prev: OutsideAlertState, at: string | undefined): boolean {
  return at !== undefined && prev.sender_at !== null && at < prev.sender_at;
}

/** `incoming` applied to the stored alert `prev` (undefined when there is none) at `now`. */
export function applyEvent(
  prev: OutsideAlertState | undefined,
  incoming: IncomingAlert,
  now: string,
): Applied {
  if (incoming.action === 'trigger') {
    const fields = {
      severity: incoming.severity ?? prev?.severity ?? 'critical',
      summary: incoming.summary,
      source: incoming.source ?? null,
      labels: incoming.labels,
      links: incoming.links,
      last_at: now,
      sender_at: incoming.at ?? prev?.sender_at ?? null,
    };
    if (!prev)
      return {
        next: { ...fields, status: 'triggered', first_at: now, resolved_at: null, count: 1 },
        change: 'opened',
      };
    if (isLate(prev, incoming.at)) return { next: prev, change: 'late' };
    if (prev.status === 'resolved')
      return {
        next: { ...prev, ...fields, status: 'triggered', resolved_at: null, count: prev.count + 1 },
        change: 'reopened',
      };
    return { next: { ...prev, ...fields, count: prev.count + 1 }, change: 'retriggered' };
  }
  if (!prev) {
    // A dated resolve of an alert not heard of yet is kept, resolved: its trigger, delivered after
    // it but dated before, is then late, and the alert does not stay open for good.
    if (incoming.action === 'acknowledge' || incoming.at === undefined)
      return { next: undefined, change: 'unknown' };
    const at = incoming.at;
    return {
      next: {
        status: 'resolved',
        severity: 'info',
        summary: incoming.summary,
        source: incoming.source ?? null,
        labels: incoming.labels,
        links: incoming.links,
        first_at: now,
        last_at: now,
        resolved_at: now,
        count: 0,
        sender_at: at,
      },
      change: 'unknown',
    };
  }
  if (incoming.action === 'acknowledge') {
    if (prev.status !== 'triggered') return { next: prev, change: 'unchanged' };
    return { next: { ...prev, status: 'acknowledged' }, change: 'acknowledged' };
  }
  if (isLate(prev, incoming.at)) return { next: prev, change: 'late' };
  // A later-dated resolve of a resolved alert still moves the bar a late trigger is judged by.
  if (prev.status === 'resolved')
    return { next: { ...prev, sender_at: incoming.at ?? prev.sender_at }, change: 'unchanged' };
  return {
    next: { ...prev, status: 'resolved', resolved_at: now, sender_at: incoming.at ?? prev.sender_at },
    change: 'resolved',
  };
}

/**
 * The state of an integration's `outside` check on one entity, from its alerts there: the worst
 * open one (acknowledged counts as open: acknowledging is not fixing) — critical or error is down,
 * warning degraded; only info alerts open records no state (null); none open is up.
 */
export function outsideCheckState(
  alerts: readonly Pick<OutsideAlertState, 'status' | 'severity'>[],
): 'up' | 'degraded' | 'down' | null {
  const open = alerts.filter((a) => a.status !== 'resolved');
  if (open.length === 0) return 'up';
  if (open.some((a) => a.severity === 'critical' || a.severity === 'error')) return 'down';
  if (open.some((a) => a.severity === 'warning')) return 'degraded';
  return null;
}
