import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/**
 * Keeps "last result" and "next run" current. The status stream carries state changes only, and a
 * check that stays up changes no state, so pages showing when a check or action last ran and runs
 * next read it again on their own: just after the next run is due (the probe has run by then),
 * never sooner than REFRESH_MIN_MS nor later than REFRESH_MAX_MS. A page in a hidden tab asks
 * nothing (TanStack Query pauses intervals in the background).
 */

/** The soonest a page asks again: a probe takes a moment after it is due. */
export const REFRESH_MIN_MS = 2_000;
/** The latest: push reports and manual runs come at any time, and a page must not stay stale long. */
export const REFRESH_MAX_MS = 30_000;
/** How long after its next run is due a probe may still be under way (a tick, then its timeout). */
const DUE_SLACK_MS = 1_000;
/** Overdue longer than this, nothing is running it (the check is disabled, the scheduler is off). */
const OVERDUE_MS = 15_000;

/**
 * The wait before reading again records whose next runs are at `nextRuns` (ISO times; null when
 * none is planned): just after the soonest, within [min, REFRESH_MAX_MS].
 */
export function refreshDelay(
  nextRuns: readonly (string | null | undefined)[],
  now: number,
  min = REFRESH_MIN_MS,
): number {
  const due = nextRuns.filter((t): t is string => Boolean(t)).map((t) => Date.parse(t));
  const soonest = Math.min(...due.filter((t) => t > now - OVERDUE_MS));
  if (!Number.isFinite(soonest)) return REFRESH_MAX_MS;
  return Math.min(REFRESH_MAX_MS, Math.max(min, soonest - now + DUE_SLACK_MS));
}

/**
 * Refreshes the queries under `keys` when `value` changes (not on the first render): a check's
 * `last_result_at` moving means its results and charts have a new row.
 */
export function useRefreshOnChange(value: unknown, keys: QueryKey[]): void {
  const queryClient = useQueryClient();
  const seen = useRef(value);
  const keysRef = useRef(keys);
  keysRef.current = keys;
  useEffect(() => {
    if (Object.is(seen.current, value)) return;
    seen.current = value;
    for (const queryKey of keysRef.current) void queryClient.invalidateQueries({ queryKey });
  }, [value, queryClient]);
}
