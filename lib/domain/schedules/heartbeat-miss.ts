import {
  type DeadlineReason,
  deadlineAfterMissMs,
  type HeartbeatCheck,
  type HeartbeatState,
  heartbeatGraceMs,
  pushDeadline,
  runAllowanceMs,
} from './heartbeat.ts';

/**
 * What the dead man's switch records when a push check's deadline passes (pure): why (late,
 * unfinished, hung past its keepalive_seconds, or past its max_duration_seconds), the sentence its synthetic failure carries, whether it ends the started run, and
 * the next deadline, so each missed expected run fails once.
 */

export interface MissedRun {
  reason: DeadlineReason;
  message: string;
  /** An unfinished run ends with its failure: the deadline after it is the schedule's again. */
  endsRun: boolean;
  /** The next deadline, or null when nothing is expected any more (no success to count from). */
  nextAtMs: number | null;
}

/**
 * The deadline of a push check whose latest recorded result is at `recordedMs` (a synthetic
 * failure, or null): its own deadline, unless that one has passed and its miss is recorded, then
 * the deadline of the next expected run after it.
 */
export function armedDeadlineMs(
  check: HeartbeatCheck,
  state: HeartbeatState,
  recordedMs: number | null,
): number | null {
  const deadline = pushDeadline(check, state);
  if (!deadline) return null;
  if (recordedMs === null || deadline.atMs > recordedMs) return deadline.atMs;
  return deadlineAfterMissMs(check, recordedMs);
}

/**
 * The miss at the deadline `slotMs`, read from the check's state when the switch fires. It is
 * "unfinished" when the started run's allowance is what passed (it came before the late deadline,
 * as in Healthchecks, where the grace starts at the earlier of the expected time and the start).
 */
export function missedRun(check: HeartbeatCheck, state: HeartbeatState, slotMs: number): MissedRun {
  const zone = check.config.schedule?.timezone ?? 'UTC';
  const deadline = pushDeadline(check, state);
  const started = state.run_started_at ? Date.parse(state.run_started_at) : null;
  if (deadline && deadline.reason !== 'late' && deadline.atMs <= slotMs && started !== null) {
    // The run that did not finish was the expected one: the next deadline is the next expected run's.
    const late = pushDeadline(check, { ...state, run_started_at: null })?.atMs ?? null;
    const seen = state.run_seen_at ? Math.max(started, Date.parse(state.run_seen_at)) : started;
    return {
      reason: deadline.reason,
      message:
        deadline.reason === 'hung'
          ? `hung: no /start or /log since ${zonedTime(seen, zone)} ${zone} (keepalive_seconds ${check.config.keepalive_seconds} s)`
          : deadline.reason === 'too_long'
            ? `hung: started at ${zonedTime(started, zone)} ${zone} and still running after ${durationWords(check.config.max_duration_seconds ?? 0)} (max_duration_seconds ${check.config.max_duration_seconds} s)`
            : `started at ${zonedTime(started, zone)} ${zone} but did not finish within ${Math.round(runAllowanceMs(check) / 1000)} s`,
      endsRun: true,
      nextAtMs: late === null ? null : deadlineAfterMissMs(check, Math.max(late, slotMs)),
    };
  }
  // A run started after its expected time is late all the same: its start does not re-arm the miss.
  const nextAtMs = armedDeadlineMs(check, state, slotMs);
  const grace = heartbeatGraceMs(check);
  if (check.config.schedule) {
    return {
      reason: 'late',
      message: `expected at ${zonedTime(slotMs - grace, zone)} ${zone} (+${durationWords(grace / 1000)} grace): no success received`,
      endsRun: false,
      nextAtMs,
    };
  }
  // An interval's grace is the whole silence since the last report (SPEC): say how long it lasted.
  const last = state.last_push_at ? Date.parse(state.last_push_at) : slotMs;
  return {
    reason: 'late',
    message: `no result received for ${Math.round((slotMs - last) / 1000)} s (grace period exceeded)`,
    endsRun: false,
    nextAtMs,
  };
}

/** `YYYY-MM-DD HH:mm` (with `:ss` when not on the minute) on the clock of `timeZone`. */
function zonedTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const seconds = part('second') === '00' ? '' : `:${part('second')}`;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}${seconds}`;
}

/** A duration in the largest whole unit: "1 h", "30 min", "90 s". */
function durationWords(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
