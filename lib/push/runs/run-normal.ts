import { scheduleOffset } from '../../domain/schedules.ts';
import type { Table } from '../../store/table.ts';
import { type Normal, normalOf } from './normal.ts';
import { latestRuns } from './run-items.ts';

/**
 * A heartbeat's learned normal from its stored runs (docs/heartbeats.md "The learned normal"):
 * the durations of its successful runs with a /start among its latest RUNS_READ run items
 * (plain successes have none: their runs, of unknown duration, are their results), oldest first, and for a scheduled check the same runs' start offsets (seconds from the nearest
 * scheduled time, by the check's schedule now), through normal.ts. Nothing is stored for it: it
 * is computed at each timed run's end (and for GET /v1/checks/{id}/normal).
 */

/** The latest runs read: normal.ts learns from the newest 100 completed ones among them. */
const RUNS_READ = 100;

export async function learnedNormal(
  table: Table,
  checkId: string,
  schedule?: { cron: string; timezone: string } | undefined,
): Promise<Normal> {
  const runs = await latestRuns(table, checkId, RUNS_READ);
  const timed = runs.filter((run) => run.outcome === 'success' && run.duration_ms !== null).reverse();
  const offsets = schedule
    ? timed.flatMap((run) => {
        const offset = run.started_at ? scheduleOffset(schedule, Date.parse(run.started_at)) : null;
        return offset ? [offset.offsetMs / 1000] : [];
      })
    : [];
  return normalOf(
    timed.map((run) => run.duration_ms ?? 0),
    offsets,
  );
}
