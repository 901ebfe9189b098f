import { scheduleOffset } from '../../domain/schedules.ts';
import { type Anomaly, durationAnomaly, durationWords, type Normal, startAnomaly } from './normal.ts';
import type { RunFlag, RunOutcome } from './run-items.ts';

/**
 * A heartbeat's run rules (pure; DECISIONS.md "Cron runs (wave 6)", docs/heartbeats.md "Run
 * rules"): what a run's end is recorded as. A rule's breach is a failed result whose message is
 * the rule's words, so the state, routes and on-call apply unchanged; a run far outside its
 * learned normal is a degraded result with the evidence, never a failure by itself.
 */

/** The run rules of a push check's config (lib/check-types/push/push.ts). */
interface RunRules {
  min_duration_seconds?: number | undefined;
  max_duration_seconds?: number | undefined;
  schedule?: { cron: string; timezone: string } | undefined;
  early_seconds?: number | undefined;
}

/** A run's end as reported. */
interface RunEnd {
  kind: 'success' | 'fail' | 'exit';
  exitStatus?: number | undefined;
  /** end − start, when the run had a /start. */
  durationMs?: number | undefined;
  /** The run's /start, if it had one (a scheduled run's start is measured against its normal too). */
  startedAtMs?: number | undefined;
}

/** What a run's end records: its result and the run's outcome and flags. */
interface RunVerdict {
  success: boolean;
  degraded: boolean;
  message: string;
  outcome: RunOutcome;
  flags: RunFlag[];
}

/** The message of a failure reported on /fail (as the ping URLs always said). */
const FAIL_MESSAGE = 'failure reported to the ping URL';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * The verdict on a run's end. A failure the job reported is that failure; a success is checked
 * against min_duration_seconds (too short: failed), then max_duration_seconds (too long:
 * degraded, as before runs), then the learned normal when one is given (degraded, with the
 * evidence: its duration, and a scheduled run's start offset from its nearest scheduled time). `/0` is a success with its exit status.
 */
export function judgeEnd(end: RunEnd, rules: RunRules, normal?: Normal): RunVerdict {
  const { durationMs } = end;
  const flags: RunFlag[] = [];
  const maxMs = rules.max_duration_seconds !== undefined ? rules.max_duration_seconds * 1000 : undefined;
  if (durationMs !== undefined && maxMs !== undefined && durationMs > maxMs) flags.push('too_long');
  if (end.kind === 'fail')
    return { success: false, degraded: false, message: FAIL_MESSAGE, outcome: 'fail', flags };
  if (end.kind === 'exit' && end.exitStatus !== 0) {
    return {
      success: false,
      degraded: false,
      message: `exit status ${end.exitStatus}`,
      outcome: 'exit',
      flags,
    };
  }
  const ok = (degraded: boolean, message: string, more: RunFlag[] = []): RunVerdict => ({
    success: true,
    degraded,
    message,
    outcome: 'success',
    flags: [...flags, ...more],
  });
  if (durationMs === undefined) return ok(false, '');
  const minMs = rules.min_duration_seconds !== undefined ? rules.min_duration_seconds * 1000 : undefined;
  if (minMs !== undefined && durationMs < minMs) {
    return {
      success: false,
      degraded: false,
      message: `finished in ${durationWords(durationMs)}; expected at least ${durationWords(minMs)}`,
      outcome: 'success',
      flags: [...flags, 'too_short'],
    };
  }
  if (maxMs !== undefined && durationMs > maxMs) {
    return ok(
      true,
      `the run took ${seconds(durationMs)}, longer than max_duration_seconds (${rules.max_duration_seconds} s)`,
    );
  }
  const offset =
    rules.schedule && end.startedAtMs !== undefined ? scheduleOffset(rules.schedule, end.startedAtMs) : null;
  const anomalies: Anomaly[] = normal
    ? [
        durationAnomaly(durationMs, normal),
        offset ? startAnomaly(offset.offsetMs / 1000, normal) : undefined,
      ].filter((a): a is Anomaly => a !== undefined)
    : [];
  return anomalies.length > 0
    ? ok(
        true,
        anomalies.map((a) => a.reason).join('; '),
        anomalies.map((a) => a.flag),
      )
    : ok(false, '');
}

/**
 * early_seconds: the words of a scheduled run's start more than that before its nearest scheduled
 * time ("started 40 min before its 02:00 schedule", the time on the schedule's clock), or undefined.
 */
export function earlyMessage(startedAtMs: number, rules: RunRules): string | undefined {
  const { schedule, early_seconds } = rules;
  if (!schedule || early_seconds === undefined) return undefined;
  const offset = scheduleOffset(schedule, startedAtMs);
  if (!offset || -offset.offsetMs <= early_seconds * 1000) return undefined;
  const at = new Intl.DateTimeFormat('en-GB', {
    timeZone: schedule.timezone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
  }).format(offset.scheduledMs);
  const zone = schedule.timezone === 'UTC' ? '' : ` ${schedule.timezone}`;
  return `started ${durationWords(-offset.offsetMs)} before its ${at}${zone} schedule`;
}

/** The failure of a /start while another run is open (overlap: alert). */
export function overlapMessage(otherStartedAtMs: number, nowMs: number): string {
  return `started while another run was still running (started ${durationWords(Math.max(0, nowMs - otherStartedAtMs))} earlier)`;
}
