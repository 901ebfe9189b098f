/**
 * A heartbeat's learned normal (DECISIONS.md "Cron runs (wave 6)", docs/heartbeats.md "The learned
 * normal"): from its last 100 completed runs, the 5th, 50th and 95th percentiles of their durations
 * and of how far after its expected time each started; active once 20 runs were seen. A run is
 * anomalous when it lies far outside the band, by a rule that stays quiet on a job's ordinary
 * wobble: longer than both three times the p95 and the p95 plus five minutes, or shorter than a
 * third of the p5. Percentiles, not means: one run that hung for a day moves the p95 of a hundred
 * runs by one place, not the band. Nothing is stored per run beyond the run itself: the normal is
 * recomputed from the runs kept.
 */

/** Completed runs the normal needs before it flags anything. */
export const NORMAL_MIN_RUNS = 20;
/** The newest completed runs the normal is learned from. */
const NORMAL_WINDOW = 100;
/** A long run must also pass the p95 by this much (a 2 s job that takes 7 s is no anomaly). */
const LONG_MARGIN_MS = 5 * 60_000;
/** A late or early start must pass the band's edge by at least this much. */
const START_MARGIN_S = 5 * 60;

interface Quantiles {
  p5: number;
  p50: number;
  p95: number;
}

export interface Normal {
  /** Completed runs it was learned from (at most NORMAL_WINDOW). */
  runs_seen: number;
  /** Durations, ms. */
  duration: Quantiles | null;
  /** Seconds after the expected time each run started (scheduled checks only). */
  start_offset: Quantiles | null;
  /** Whether it flags: NORMAL_MIN_RUNS seen. */
  active: boolean;
}

/** The q-quantile of sorted values, linearly interpolated between closest ranks (R's type 7). */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] ?? low;
  return low + (high - low) * (position - below);
}

function quantilesOf(values: readonly number[]): Quantiles | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { p5: quantile(sorted, 0.05), p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

/** The normal of completed runs' durations (ms) and start offsets (s), each oldest first. */
export function normalOf(durationsMs: readonly number[], startOffsetsS: readonly number[] = []): Normal {
  const durations = durationsMs.slice(-NORMAL_WINDOW);
  return {
    runs_seen: durations.length,
    duration: quantilesOf(durations),
    start_offset: quantilesOf(startOffsetsS.slice(-NORMAL_WINDOW)),
    active: durations.length >= NORMAL_MIN_RUNS,
  };
}

/** "4 min 50 s", "41 min", "2 h 5 min", "3.2 s": a duration for a reason, to the second past a minute. */
export function durationWords(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return s % 60 === 0 ? `${minutes} min` : `${minutes} min ${s % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** What is anomalous about a run, with its evidence, or undefined. */
export interface Anomaly {
  flag: 'anomalous_duration' | 'anomalous_start';
  reason: string;
}

/** Whether a completed run's duration lies far outside the normal. */
export function durationAnomaly(durationMs: number, normal: Normal): Anomaly | undefined {
  const band = normal.duration;
  if (!normal.active || band === null) return undefined;
  const evidence = `its last ${normal.runs_seen} runs took ${durationWords(band.p5)}–${durationWords(band.p95)}, p95 ${durationWords(band.p95)}`;
  if (durationMs > Math.max(band.p95 * 3, band.p95 + LONG_MARGIN_MS))
    return { flag: 'anomalous_duration', reason: `ran ${durationWords(durationMs)}; ${evidence}` };
  if (durationMs < band.p5 / 3)
    return { flag: 'anomalous_duration', reason: `ran only ${durationWords(durationMs)}; ${evidence}` };
  return undefined;
}

/** Whether a run started far from when its schedule's runs usually start (offset from the expected time, s). */
export function startAnomaly(offsetS: number, normal: Normal): Anomaly | undefined {
  const band = normal.start_offset;
  if (!normal.active || band === null) return undefined;
  const margin = Math.max(3 * (band.p95 - band.p5), START_MARGIN_S);
  const usual = `its runs usually start ${durationWords(Math.max(0, band.p5) * 1000)}–${durationWords(Math.max(0, band.p95) * 1000)} after the scheduled time`;
  if (offsetS > band.p95 + margin)
    return {
      flag: 'anomalous_start',
      reason: `started ${durationWords(offsetS * 1000)} after the scheduled time; ${usual}`,
    };
  if (offsetS < band.p5 - margin)
    return {
      flag: 'anomalous_start',
      reason: `started ${durationWords(Math.abs(offsetS) * 1000)} ${offsetS < 0 ? 'before' : 'after'} the scheduled time; ${usual}`,
    };
  return undefined;
}
