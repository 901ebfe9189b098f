import { Cron } from 'croner';
import { useId } from 'react';
import { readerTimeZone, timeZoneSuggestions } from '../../maintenance/words';
import { SelectField, TextField } from '../../ui/fields';

/**
 * A push check's schedule in the form: every interval (the form's interval input) or at the times
 * of a cron expression read in a timezone, with the next five expected times in that zone (croner,
 * the library the API computes deadlines with, so DST reads the same) or what is wrong with the
 * expression. The draft keeps them as config inputs: `expect`, `cron`, `timezone`.
 */

type ScheduleDraft = { expect: string; cron: string; timezone: string };
export interface PushSchedule {
  cron: string;
  timezone: string;
}

/** A new push check's schedule inputs: an interval; the reader's timezone once a cron is chosen. */
export function emptyScheduleDraft(): ScheduleDraft {
  return { expect: 'interval', cron: '', timezone: readerTimeZone() };
}

/** The inputs of a stored push check's config (its schedule, if any). */
export function scheduleDraftOf(config: { schedule?: PushSchedule | undefined }): ScheduleDraft {
  const schedule = config.schedule;
  return schedule
    ? { expect: 'cron', cron: schedule.cron, timezone: schedule.timezone }
    : emptyScheduleDraft();
}

/** True when the draft expects runs on a cron schedule (its interval is then derived by the API). */
export function onSchedule(config: Record<string, string>): boolean {
  return config.expect === 'cron';
}

/** The `schedule` of the API body (none on an interval: an update's config then drops a stored one). */
export function scheduleConfigOf(config: Record<string, string>): { schedule?: PushSchedule } {
  if (!onSchedule(config)) return {};
  return {
    schedule: { cron: (config.cron ?? '').trim(), timezone: (config.timezone ?? '').trim() || 'UTC' },
  };
}

/** The next `count` times of a cron in a zone, or why the expression cannot be read (as the API says it). */
function nextTimes(
  cron: string,
  timezone: string,
  nowMs: number,
  count = 5,
): { times: Date[] } | { problem: string } {
  const pattern = cron.trim();
  if (pattern === '') return { problem: 'Enter a cron expression, such as 30 2 * * * (02:30 every day).' };
  if (pattern.split(/\s+/).length !== 5)
    return { problem: 'A cron expression has 5 fields: minute hour day-of-month month day-of-week.' };
  try {
    const times = new Cron(pattern, { timezone, paused: true }).nextRuns(count, new Date(nowMs));
    return times.length > 0 ? { times } : { problem: 'The expression never matches.' };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : 'Not a cron expression.' };
  }
}

/** A time on the clock of `timeZone`: "Sun 29 Mar 2026, 03:00". */
function zoned(date: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(date);
  } catch {
    return date.toISOString();
  }
}

/** The schedule inputs: interval or cron; with a cron, its timezone and the next five expected times. */
export function PushScheduleFields({
  config,
  onChange,
  errs,
  nowMs = Date.now(),
}: {
  config: Record<string, string>;
  onChange: (patch: Partial<ScheduleDraft>) => void;
  errs: Record<string, string>;
  nowMs?: number;
}) {
  const zones = useId();
  const timezone = (config.timezone ?? '').trim() || 'UTC';
  const next = onSchedule(config) ? nextTimes(config.cron ?? '', timezone, nowMs) : undefined;
  return (
    <>
      <SelectField
        label="Expect runs"
        value={config.expect ?? 'interval'}
        onChange={(expect) => onChange({ expect })}
        options={[
          { value: 'interval', label: 'Every interval' },
          { value: 'cron', label: 'On a cron schedule' },
        ]}
        error={errs.interval_seconds}
      />
      {onSchedule(config) ? (
        <>
          <TextField
            label="Cron schedule"
            value={config.cron ?? ''}
            onChange={(cron) => onChange({ cron })}
            required
            placeholder="30 2 * * *"
            hint="The job's crontab schedule, 5 fields: minute hour day-of-month month day-of-week"
            error={errs['config.schedule.cron'] ?? errs['config.schedule']}
          />
          <TextField
            label="Timezone"
            value={config.timezone ?? ''}
            onChange={(tz) => onChange({ timezone: tz })}
            list={zones}
            hint="The zone the job's crontab runs in (an IANA name); daylight saving time is followed"
            error={errs['config.schedule.timezone']}
          />
          <datalist id={zones}>
            {timeZoneSuggestions().map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <div className="next-times" aria-live="polite">
            {next && 'times' in next ? (
              <>
                <p>Next expected runs ({timezone}):</p>
                <ol aria-label="Next expected runs">
                  {next.times.map((t) => (
                    <li key={t.getTime()}>{zoned(t, timezone)}</li>
                  ))}
                </ol>
              </>
            ) : next ? (
              <p className="field-error" role="alert">
                {next.problem}
              </p>
            ) : null}
          </div>
        </>
      ) : null}
    </>
  );
}
