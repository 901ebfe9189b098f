import { pausedCron } from './cron.ts';

/**
 * When a push check (a heartbeat) is expected and when it is late (pure). Healthchecks' model:
 * with an interval, the next run is expected `interval_seconds` after the last success and the
 * check fails once `grace_seconds` of silence have passed (SPEC: the whole silence, default
 * interval x 2); with a cron schedule read in its timezone, the next run is expected at the first
 * occurrence after the last success and the check fails `grace_seconds` (default 1 h) after it.
 * A run that signalled /start must end within the grace after its start ("started but did not
 * finish"), or by the normal deadline if that comes first; with keepalive_seconds, it is hung once
 * that long passes without a /start or /log; with max_duration_seconds, it is hung (too long) once
 * it has run that long.
 */

/** Healthchecks' default grace for schedules. */
const SCHEDULE_DEFAULT_GRACE_SECONDS = 3600;

/** What the deadline depends on of a push check (its config as lib/check-types/push/push.ts stores it). */
export interface HeartbeatCheck {
  interval_seconds: number;
  config: {
    grace_seconds?: number | undefined;
    schedule?: { cron: string; timezone: string } | undefined;
    /** A started run with no /start or /log for this long is hung (docs/heartbeats.md "Run rules"). */
    keepalive_seconds?: number | undefined;
    /** A started run still running this long is hung, too long (docs/heartbeats.md "Run rules"). */
    max_duration_seconds?: number | undefined;
  };
}

export interface HeartbeatState {
  /** The last success or failure the job reported (not the synthetic ones). */
  last_push_at?: string | null | undefined;
  /** A /start not yet followed by an end (success, failure or exit status). */
  run_started_at?: string | null | undefined;
  /** The started run's latest /log (keepalive_seconds counts from it, or from the start). */
  run_seen_at?: string | null | undefined;
}

/**
 * Why the deadline is what it is: a run expected and missing, a run started and not ended, a
 * started run silent past its keepalive_seconds, or one running past its max_duration_seconds.
 */
export type DeadlineReason = 'late' | 'unfinished' | 'hung' | 'too_long';

/** When a started run's keepalive runs out: keepalive_seconds after its start or latest /log, or null. */
function keepaliveEndsMs(check: HeartbeatCheck, state: HeartbeatState): number | null {
  const { keepalive_seconds } = check.config;
  if (keepalive_seconds === undefined || !state.run_started_at) return null;
  const started = Date.parse(state.run_started_at);
  const seen = state.run_seen_at ? Math.max(started, Date.parse(state.run_seen_at)) : started;
  return seen + keepalive_seconds * 1000;
}

/** The first occurrence strictly after `afterMs`, or null when the expression never matches again. */
function nextOccurrenceMs(schedule: { cron: string; timezone: string }, afterMs: number): number | null {
  return pausedCron(schedule.cron, schedule.timezone).nextRun(new Date(afterMs))?.getTime() ?? null;
}

/** The next `count` occurrences after `afterMs` (the console's "next five expected times"). */
function nextOccurrences(
  schedule: { cron: string; timezone: string },
  afterMs: number,
  count: number,
): number[] {
  return pausedCron(schedule.cron, schedule.timezone)
    .nextRuns(count, new Date(afterMs))
    .map((d) => d.getTime());
}

/**
 * How far `atMs` (a run's start) is from its schedule: the offset in ms from the nearest
 * occurrence (negative: before it), and that occurrence; null when the expression never matches.
 */
export function scheduleOffset(
  schedule: { cron: string; timezone: string },
  atMs: number,
): { offsetMs: number; scheduledMs: number } | null {
  const cron = pausedCron(schedule.cron, schedule.timezone);
  const before = cron
    .previousRuns(2, new Date(atMs + 1000))
    .find((d) => d.getTime() <= atMs)
    ?.getTime();
  const after = cron.nextRun(new Date(atMs))?.getTime();
  const nearest =
    before === undefined ? after : after === undefined || atMs - before <= after - atMs ? before : after;
  return nearest === undefined ? null : { offsetMs: atMs - nearest, scheduledMs: nearest };
}

/** The grace in ms: a schedule's (default 1 h), or an interval's whole silence (default interval x 2). */
export function heartbeatGraceMs(check: HeartbeatCheck): number {
  const { grace_seconds, schedule } = check.config;
  if (schedule) return (grace_seconds ?? SCHEDULE_DEFAULT_GRACE_SECONDS) * 1000;
  return (grace_seconds ?? check.interval_seconds * 2) * 1000;
}

/**
 * How long a started run may take before it counts as "started but did not finish": a schedule's
 * grace, or for an interval what its grace allows beyond the interval (at least one interval).
 */
export function runAllowanceMs(check: HeartbeatCheck): number {
  const grace = heartbeatGraceMs(check);
  if (check.config.schedule) return grace;
  const interval = check.interval_seconds * 1000;
  return Math.max(grace - interval, interval);
}

/** When the next run is expected after the last success, or null before the first one. */
export function nextExpectedMs(check: HeartbeatCheck, state: HeartbeatState): number | null {
  if (!state.last_push_at) return null;
  const last = Date.parse(state.last_push_at);
  const { schedule } = check.config;
  if (schedule) return nextOccurrenceMs(schedule, last);
  return last + check.interval_seconds * 1000;
}

/**
 * When the check fails if nothing arrives, and why; null while it is not armed (never reported,
 * no run started: a new heartbeat does not go down before its first report, as in Healthchecks).
 */
export function pushDeadline(
  check: HeartbeatCheck,
  state: HeartbeatState,
): { atMs: number; reason: DeadlineReason } | null {
  let late: number | null = null;
  if (state.last_push_at) {
    late = check.config.schedule
      ? (() => {
          const expected = nextExpectedMs(check, state);
          return expected === null ? null : expected + heartbeatGraceMs(check);
        })()
      : Date.parse(state.last_push_at) + heartbeatGraceMs(check);
  }
  const started = state.run_started_at ? Date.parse(state.run_started_at) : null;
  const { max_duration_seconds } = check.config;
  // The earliest wins; on a tie the later-told reason does (late, then unfinished, too long, hung).
  const candidates: { atMs: number | null; reason: DeadlineReason }[] = [
    { atMs: late, reason: 'late' },
    { atMs: started === null ? null : started + runAllowanceMs(check), reason: 'unfinished' },
    {
      atMs:
        started !== null && max_duration_seconds !== undefined ? started + max_duration_seconds * 1000 : null,
      reason: 'too_long',
    },
    { atMs: keepaliveEndsMs(check, state), reason: 'hung' },
  ];
  let first: { atMs: number; reason: DeadlineReason } | null = null;
  for (const { atMs, reason } of candidates) {
    if (atMs !== null && (first === null || atMs < first.atMs)) first = { atMs, reason };
  }
  return first;
}

/**
 * The deadline after a missed one at `slotMs` (one synthetic failure per expected run, SPEC):
 * an interval later, or the grace after the schedule's next occurrence; always after `slotMs`.
 */
export function deadlineAfterMissMs(check: HeartbeatCheck, slotMs: number): number {
  const { schedule } = check.config;
  if (!schedule) return slotMs + check.interval_seconds * 1000;
  const grace = heartbeatGraceMs(check);
  const expected = nextOccurrenceMs(schedule, slotMs - grace);
  const next = expected === null ? null : expected + grace;
  if (next !== null && next > slotMs) return next;
  const after = nextOccurrenceMs(schedule, slotMs);
  return after === null ? slotMs + check.interval_seconds * 1000 : after + grace;
}

/** A schedule's interval_seconds: the gap between its next two occurrences (at least 60 s). */
export function scheduleIntervalSeconds(schedule: { cron: string; timezone: string }, nowMs: number): number {
  const [a, b] = nextOccurrences(schedule, nowMs, 2);
  if (a === undefined || b === undefined) return 86_400;
  return Math.max(60, Math.round((b - a) / 1000));
}
