/**
 * Times and intervals in words, shared by every page: a time relative to now ("3 min ago", "in 20
 * s") and a check interval ("every 5 min"). Pure functions, so pages and tests use the same text.
 */

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** A span of whole seconds in the largest unit that divides it evenly: "30 s", "minute", "5 min", "hour", "2 h", "3 days". */
function spanWords(seconds: number): string {
  if (seconds % DAY === 0) return seconds === DAY ? 'day' : `${seconds / DAY} days`;
  if (seconds % HOUR === 0) return seconds === HOUR ? 'hour' : `${seconds / HOUR} h`;
  if (seconds % MINUTE === 0) return seconds === MINUTE ? 'minute' : `${seconds / MINUTE} min`;
  if (seconds > HOUR) return `${Math.floor(seconds / HOUR)} h ${Math.floor((seconds % HOUR) / MINUTE)} min`;
  if (seconds > MINUTE) return `${Math.floor(seconds / MINUTE)} min ${seconds % MINUTE} s`;
  return `${seconds} s`;
}

/** A check's interval: "every 30 s", "every 5 min", "every 2 h", "every day", "every 90 s" reads "every 1 min 30 s". */
export function everyWords(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  return `every ${spanWords(whole)}`;
}

/** `atMs` relative to `nowMs`, rounded to the unit people use: "just now", "3 min ago", "in 20 s", "2 days ago". */
export function relativeWords(atMs: number, nowMs: number): string {
  const delta = Math.round((atMs - nowMs) / 1000);
  const abs = Math.abs(delta);
  if (abs < 5) return 'just now';
  const amount =
    abs < MINUTE
      ? `${abs} s`
      : abs < HOUR
        ? `${Math.floor(abs / MINUTE)} min`
        : abs < DAY
          ? `${Math.floor(abs / HOUR)} h`
          : abs < 2 * DAY
            ? '1 day'
            : `${Math.floor(abs / DAY)} days`;
  return delta < 0 ? `${amount} ago` : `in ${amount}`;
}
