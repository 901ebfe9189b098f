import type { Schemas } from '../api/client';
import { durationInWords } from '../incidents/words';

/**
 * Uptime figures in words (GET .../uptime, docs/api.md "Uptime and SLOs"): ratios as percentages
 * with as many decimals as tell 99.9 from 99.95, and the error budget, which goes negative when
 * overspent.
 */

export type Uptime = Schemas['Uptime'];
export type UptimeWindow = Uptime['window'];
export type UptimeDay = NonNullable<Uptime['days']>[number];

export const UPTIME_WINDOWS: readonly UptimeWindow[] = ['24h', '7d', '30d', '90d'];

/** How each window reads in a table row. */
export const WINDOW_WORDS: Record<UptimeWindow, string> = {
  '24h': 'Last 24 h',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

/** A 0..1 ratio as a percentage: "99.95 %", "100 %"; never rounded up to 100 when below it. */
export function percent(ratio: number): string {
  // The API rounds to 5 decimals; the epsilon keeps 0.99167 from reading 99.166 (float error).
  const p = Math.floor(ratio * 100_000 + 1e-6) / 1000;
  return `${Number(p.toFixed(3))} %`;
}

/** The uptime ratio, or "no data" for a window without results. */
export function uptimeWords(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined ? 'no data' : percent(ratio);
}

/** The error budget left: "83.3 % left", "spent", "overspent (-120 %)". */
export function budgetWords(remaining: number | null | undefined): string {
  if (remaining === null || remaining === undefined) return 'no data';
  if (remaining === 0) return 'spent';
  const p = `${Number((remaining * 100).toFixed(1))} %`;
  return remaining < 0 ? `overspent (${p})` : `${p} left`;
}

export function msWords(ms: number | null): string {
  return ms === null ? 'no data' : `${ms} ms`;
}

/** "none" only when nothing went down: a spell shorter than a second still reads "0 s". */
export function downtimeWords(seconds: number, incidents: number): string {
  return seconds === 0 && incidents === 0 ? 'none' : durationInWords(seconds);
}

export function mttrWords(seconds: number | null): string {
  return seconds === null ? 'none resolved' : durationInWords(seconds);
}

/** A day's bar: its colour class and what its tooltip and the summary say. */
export function dayClass(day: UptimeDay): string {
  if (day.uptime_ratio === null) return 'uptime-day uptime-day-none';
  if (day.uptime_ratio >= 1) return 'uptime-day uptime-day-up';
  return day.uptime_ratio >= 0.99 ? 'uptime-day uptime-day-degraded' : 'uptime-day uptime-day-down';
}

export function dayWords(day: UptimeDay): string {
  return `${day.date}: ${day.uptime_ratio === null ? 'no results' : percent(day.uptime_ratio)}`;
}

/** The bar for a screen reader: "90 days: 87 at 100 %, 2 below 100 % (lowest 97.5 % on …), 1 without results". */
export function barSummary(days: readonly UptimeDay[]): string {
  const measured = days.filter((d) => d.uptime_ratio !== null);
  const below = measured.filter((d) => (d.uptime_ratio ?? 1) < 1);
  const lowest = below.reduce<UptimeDay | undefined>(
    (low, d) => (low && (low.uptime_ratio ?? 1) <= (d.uptime_ratio ?? 1) ? low : d),
    undefined,
  );
  const parts = [`${measured.length - below.length} at 100 %`];
  if (lowest) parts.push(`${below.length} below 100 % (lowest ${dayWords(lowest)})`);
  parts.push(`${days.length - measured.length} without results`);
  return `Daily uptime, last ${days.length} days: ${parts.join(', ')}`;
}
