import type { Table } from '../../store/table.ts';
import { type Normal, normalOf } from './normal.ts';
import { latestRuns } from './run-items.ts';

/**
 * A heartbeat's learned normal from its stored runs (docs/heartbeats.md "The learned normal"):
 * the durations of its successful runs with a /start among its latest RUNS_READ runs, oldest
 * first, through normal.ts. Nothing is stored for it: it is computed at each timed run's end (and
 * for GET /v1/checks/{id}/normal). Start offsets are not learned yet: `start_offset` stays null.
 */

/** The latest runs read: normal.ts learns from the newest 100 completed ones among them. */
const RUNS_READ = 100;

export async function learnedNormal(table: Table, checkId: string): Promise<Normal> {
  const runs = await latestRuns(table, checkId, RUNS_READ);
  const durations = runs
    .filter((run) => run.outcome === 'success')
    .flatMap((run) => (run.duration_ms === null ? [] : [run.duration_ms]))
    .reverse();
  return normalOf(durations);
}
