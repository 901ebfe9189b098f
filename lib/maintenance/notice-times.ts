import { pausedCron } from '../domain/schedules.ts';
import type { WindowRecord } from './maintenance-items.ts';

/**
 * When an announced window is shown on status pages (DECISIONS.md "Status-page communication
 * (wave 5)"), computed from the window and a time alone. A run is shown from its announcement
 * ("Scheduled maintenance"), while on ("In progress") and for 24 h after its end ("Completed").
 * A one-off window is announced from `announce_from` (none: at any time before, as Statuspage shows
 * a scheduled maintenance as soon as it is saved); a recurring window's runs each from
 * `announce_lead_seconds` before their start, since one fixed time cannot announce every run.
 */

/** How long a run stays on the pages after it ends. */
const COMPLETED_SHOWN_MS = 24 * 3_600_000;

type NoticePhase = 'scheduled' | 'in_progress' | 'completed';

/** One run of a window as the pages show it. */
export interface NoticeRun {
  startMs: number;
  endMs: number;
  phase: NoticePhase;
}

type Run = { startMs: number; endMs: number };

/** Runs one noticeMoments call looks at, at most (a cron every minute over a day's interval is 1,440). */
const MAX_RUNS = 2000;

/** The runs of a window that start in [fromMs, toMs], oldest first (bounded); [] for a cron it no longer reads. */
function runsStarting(window: WindowRecord, fromMs: number, toMs: number): Run[] {
  if (window.cron !== null && window.duration_seconds !== null) {
    const durationMs = window.duration_seconds * 1000;
    let cron: ReturnType<typeof pausedCron>;
    try {
      cron = pausedCron(window.cron, window.timezone ?? 'UTC');
    } catch {
      return [];
    }
    const runs: Run[] = [];
    // croner's reference is exclusive and whole-second: start a second early and keep what is in range.
    let at = new Date(fromMs - 1000);
    while (runs.length < MAX_RUNS) {
      const next = cron.nextRun(at);
      if (!next || next.getTime() > toMs) break;
      if (next.getTime() >= fromMs)
        runs.push({ startMs: next.getTime(), endMs: next.getTime() + durationMs });
      at = next;
    }
    return runs;
  }
  if (window.starts_at === null || window.ends_at === null) return [];
  const startMs = Date.parse(window.starts_at);
  return startMs >= fromMs && startMs <= toMs ? [{ startMs, endMs: Date.parse(window.ends_at) }] : [];
}

/** When a run's notice may first show (before any announcement time is applied). */
function noticeFrom(window: WindowRecord, startMs: number): number {
  if (window.cron !== null) return startMs - (window.announce_lead_seconds ?? 0) * 1000;
  return window.announce_from === null ? Number.NEGATIVE_INFINITY : Date.parse(window.announce_from);
}

/** The longest a run lasts (how far back a run whose end is still ahead may have started). */
function longestRunMs(window: WindowRecord): number {
  if (window.cron !== null) return (window.duration_seconds ?? 0) * 1000;
  if (window.starts_at === null || window.ends_at === null) return 0;
  return Date.parse(window.ends_at) - Date.parse(window.starts_at);
}

/** The window's latest run that started at or before `nowMs`, and its next one after it. */
function aroundNow(
  window: WindowRecord,
  nowMs: number,
): { started?: Run | undefined; upcoming?: Run | undefined } {
  if (window.cron !== null && window.duration_seconds !== null) {
    const durationMs = window.duration_seconds * 1000;
    const run = (startMs: number | undefined) =>
      startMs === undefined ? undefined : { startMs, endMs: startMs + durationMs };
    try {
      const cron = pausedCron(window.cron, window.timezone ?? 'UTC');
      // croner's reference is exclusive and whole-second: look from just after now and keep what is <= now.
      const previous = cron
        .previousRuns(2, new Date(nowMs + 1000))
        .map((d) => d.getTime())
        .find((ms) => ms <= nowMs);
      const next = cron
        .nextRuns(2, new Date(nowMs))
        .map((d) => d.getTime())
        .find((ms) => ms > nowMs);
      return { started: run(previous), upcoming: run(next) };
    } catch {
      return {};
    }
  }
  if (window.starts_at === null || window.ends_at === null) return {};
  const run = { startMs: Date.parse(window.starts_at), endMs: Date.parse(window.ends_at) };
  return run.startMs <= nowMs ? { started: run } : { upcoming: run };
}

/**
 * The runs of an announced window shown at `nowMs`: at most the latest run that started (in
 * progress, or completed less than 24 h ago) and the next one once its notice is due; [] for a
 * window not announced. A run is shown when nowMs is in [its notice start, its end + 24 h).
 */
export function shownRuns(window: WindowRecord, nowMs: number): NoticeRun[] {
  if (!window.announce) return [];
  const { started, upcoming } = aroundNow(window, nowMs);
  const shown: NoticeRun[] = [];
  if (started && nowMs < started.endMs + COMPLETED_SHOWN_MS && nowMs >= noticeFrom(window, started.startMs))
    shown.push({ ...started, phase: nowMs < started.endMs ? 'in_progress' : 'completed' });
  if (upcoming && nowMs >= noticeFrom(window, upcoming.startMs))
    shown.push({ ...upcoming, phase: 'scheduled' });
  return shown;
}

/** A moment subscribers of a page may be told of. */
export interface NoticeMoment {
  kind: 'announced' | 'started' | 'ended';
  atMs: number;
  startMs: number;
  endMs: number;
}

/**
 * The announce, start and end moments of a window's runs in [fromMs, toMs), oldest first (so
 * notices to subscribers can be sent for each interval a scheduler walks). Nothing before the
 * window was announced (`announced_at`) is a moment: a run's announcement is its notice start or
 * `announced_at`, whichever is later, and only while the run has not ended. Nothing for a window
 * that is not announced.
 */
export function noticeMoments(window: WindowRecord, fromMs: number, toMs: number): NoticeMoment[] {
  if (!window.announce || window.announced_at === null || toMs <= fromMs) return [];
  const announcedAt = Date.parse(window.announced_at);
  const lead = window.cron !== null ? (window.announce_lead_seconds ?? 0) * 1000 : 0;
  const moments: NoticeMoment[] = [];
  for (const run of runsStarting(
    window,
    fromMs - longestRunMs(window),
    window.cron !== null ? toMs + lead : Number.MAX_SAFE_INTEGER,
  )) {
    const announced = Math.max(noticeFrom(window, run.startMs), announcedAt);
    const candidates: NoticeMoment[] = [
      ...(announced < run.endMs ? [{ kind: 'announced' as const, atMs: announced, ...run }] : []),
      { kind: 'started', atMs: run.startMs, ...run },
      { kind: 'ended', atMs: run.endMs, ...run },
    ];
    for (const moment of candidates)
      if (moment.atMs >= announcedAt && moment.atMs >= fromMs && moment.atMs < toMs) moments.push(moment);
  }
  return moments.sort((a, b) => a.atMs - b.atMs);
}
