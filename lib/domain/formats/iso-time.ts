const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: past it (and before 1970) the date part is not 10 characters. */
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;
let cachedDayStart = Number.NaN;
let cachedDayPrefix = '';

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * ISO 8601 UTC with milliseconds and `Z`, as every record uses: `Date#toISOString`'s text. The
 * scheduler and the recorder format several times per probe, so the time of day is formatted here
 * under a cached date part (~7x faster); other times (fractions, before 1970, after 9999) take
 * toISOString itself.
 */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_FOUR_DIGIT_MS) return new Date(ms).toISOString();
  const dayStart = ms - (ms % DAY_MS);
  if (dayStart !== cachedDayStart) {
    cachedDayPrefix = new Date(dayStart).toISOString().slice(0, 11);
    cachedDayStart = dayStart;
  }
  let rest = ms - dayStart;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const milliText = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : `${millis}`;
  return `${cachedDayPrefix}${two(hours)}:${two(minutes)}:${two(seconds)}.${milliText}Z`;
}
