/**
 * Uptime figures (pure): UTC days, latency percentiles from a rollup's histogram, the ratio and the
 * error budget. Times are passed in; nothing is read or written.
 */
import { ROLLUP_HISTOGRAM_SIZE, type Rollup } from './sparkline.ts';

export const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) holding `ms`. */
export function utcDate(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** The start (ms) of the UTC day holding `ms`. */
export function dayStartMs(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The start (ms) of a UTC day given as YYYY-MM-DD. */
export function dateStartMs(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

/** The `days` UTC days ending with the day holding `nowMs`, oldest first. */
export function lastDays(nowMs: number, days: number): string[] {
  const today = dayStartMs(nowMs);
  return Array.from({ length: days }, (_, i) => utcDate(today - (days - 1 - i) * DAY_MS));
}

/**
 * Approximate nearest-rank percentile `q` (0 < q <= 1) in whole ms, or null for an empty rollup:
 * the geometric midpoint of the histogram bucket holding the ceil(q·n)-th latency, capped at
 * latency_max (within ~9% like p50FromRollup in lib/domain/rollups/sparkline.ts).
 */
export function percentileFromRollup(rollup: Rollup, q: number): number | null {
  if (rollup.total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * rollup.total));
  let seen = 0;
  for (const [i, count] of rollup.histogram.entries()) {
    seen += count;
    if (seen < rank) continue;
    if (i === 0) return 0;
    if (i === ROLLUP_HISTOGRAM_SIZE - 1) return Math.round(rollup.latency_max);
    return Math.round(Math.min(2 ** ((i - 0.5) / 4), rollup.latency_max));
  }
  return Math.round(rollup.latency_max);
}

/** successes / results rounded to 5 decimals, or null without results. */
export function uptimeRatio(results: number, failures: number): number | null {
  if (results === 0) return null;
  return Math.round(((results - failures) / results) * 100_000) / 100_000;
}

/**
 * The error budget left: 1 - (1 - uptime) / (1 - target), 5 decimals. 1 is untouched, 0 spent, and
 * below 0 overspent (the answer goes negative rather than stopping at 0, so how far shows).
 * Null without results.
 */
export function errorBudgetRemaining(uptime: number | null, target: number): number | null {
  if (uptime === null) return null;
  return Math.round((1 - (1 - uptime) / (1 - target)) * 100_000) / 100_000;
}

/** A state period: from `startMs` (inclusive) to `endMs` (exclusive) in `state`. */
export interface StatePeriod {
  startMs: number;
  endMs: number;
  state: string;
}

/**
 * Periods of state from transitions (oldest first) clipped to [fromMs, toMs): `initial` is the state
 * at `fromMs` (the `to_state` of the last transition before it, or unknown).
 */
export function statePeriods(
  initial: string,
  transitions: readonly { atMs: number; to: string }[],
  fromMs: number,
  toMs: number,
): StatePeriod[] {
  const periods: StatePeriod[] = [];
  let state = initial;
  let start = fromMs;
  for (const t of transitions) {
    if (t.atMs < fromMs) {
      state = t.to;
      continue;
    }
    if (t.atMs >= toMs) break;
    if (t.atMs > start) periods.push({ startMs: start, endMs: t.atMs, state });
    state = t.to;
    start = t.atMs;
  }
  if (toMs > start) periods.push({ startMs: start, endMs: toMs, state });
  return periods;
}

/** A state that counts as downtime: down or degraded (unknown is "no data", not downtime). */
const isDownState = (state: string) => state === 'down' || state === 'degraded';

/**
 * Downtime, incidents and MTTR from periods: downtime is the time in a down state; an incident is
 * a down period that starts in the window (after the window's first instant); MTTR is the mean
 * length of the incidents that also ended in the window (null when none did).
 */
export function downtimeOf(periods: readonly StatePeriod[], windowStartMs: number, windowEndMs: number) {
  let downtimeMs = 0;
  let incidents = 0;
  let repairedMs = 0;
  let repaired = 0;
  // Adjacent down and degraded periods are one spell of downtime.
  let spellStart: number | undefined;
  periods.forEach((p, i) => {
    if (!isDownState(p.state)) return;
    downtimeMs += p.endMs - p.startMs;
    const previous = periods[i - 1];
    const continues = previous && isDownState(previous.state) && previous.endMs === p.startMs;
    if (!continues) {
      spellStart = p.startMs;
      if (p.startMs > windowStartMs) incidents += 1;
    }
    const next = periods[i + 1];
    const ends = !(next && isDownState(next.state) && next.startMs === p.endMs);
    if (ends && p.endMs < windowEndMs && spellStart !== undefined && spellStart > windowStartMs) {
      repairedMs += p.endMs - spellStart;
      repaired += 1;
    }
  });
  return {
    downtime_seconds: Math.round(downtimeMs / 1000),
    incidents,
    mttr_seconds: repaired > 0 ? Math.round(repairedMs / repaired / 1000) : null,
  };
}
