import * as z from 'zod';
import { parseResult, resultsSource } from '../../checks/results.ts';
import { ValidationError } from '../../platform/errors.ts';
import { type PageDeps, type PageRequest, readListBelow } from '../../store/paging.ts';
import type { Item } from '../../store/table.ts';
import { parseRun, type RunRecord, runsSource } from './run-items.ts';

/**
 * A page of a push check's runs, newest first, from two streams of its partition merged by time
 * (issue 78 point 6): its `run` items, and its plain successes, stored only as their result
 * (`pinged`), each a run of unknown duration (no run item of its own: docs/data-model.md "A ping's
 * writes"). A page reads at most `limit` + 1 runs and scans at most RESULTS_SCANNED results (the
 * others, a job's timed ends and failures, are passed over), so a check with many results and
 * few plain successes still costs a bounded read: a page may then end short, with a cursor to read
 * on. The cursor keeps each stream's position, sealed for the check's list (another list's, or a
 * tampered one, is 400). A plain success stored before this with a run item of its own (at the same
 * time) is shown once, as that run.
 */

/** Results a page scans at most, looking for plain successes. */
export const RESULTS_SCANNED = 500;

/** Each stream's position: its last sort key given ('' none yet), and the end of the last unknown-duration run given. */
const positionSchema = z.strictObject({ run: z.string(), res: z.string(), twin: z.string() });
type Position = z.infer<typeof positionSchema>;

interface Entry {
  atMs: number;
  run: RunRecord;
  sk: string;
}

const invalidCursor = (): never => {
  throw new ValidationError('invalid cursor', [{ path: 'cursor', message: 'is not a cursor of this list' }]);
};

/** The list a cursor is sealed for: the check's runs (its partition). */
const listOf = (checkId: string) => JSON.stringify(['runs', runsSource(checkId).pk]);

const unknownDuration = (run: RunRecord) =>
  run.started_at === null && run.outcome === 'success' && run.ended_at !== null;

/** A plain success as its run of unknown duration (its id the result's, as a run id). */
function runOfPinged(item: Item): Entry {
  const result = parseResult(item);
  return {
    atMs: Date.parse(result.checked_at),
    sk: item.sk,
    run: {
      id: `run_${result.id.slice(result.id.indexOf('_') + 1)}`,
      check_id: result.check_id,
      started_at: null,
      ended_at: result.checked_at,
      duration_ms: null,
      outcome: 'success',
      flags: [],
    },
  };
}

export async function readRunsPage(
  deps: PageDeps,
  checkId: string,
  page: PageRequest,
  keep: (item: Item) => boolean,
): Promise<{ runs: RunRecord[]; nextCursor: string | null }> {
  const list = listOf(checkId);
  let at: Position = { run: '', res: '', twin: '' };
  if (page.cursor !== undefined) {
    const parsed = positionSchema.safeParse(await deps.cursors.open(page.cursor, list));
    if (!parsed.success) return invalidCursor();
    at = parsed.data;
  }
  const runsFrom = runsSource(checkId);
  const resultsFrom = resultsSource(checkId);
  const inStream = (sk: string, prefix: string) => sk === '' || sk.startsWith(prefix);
  if (!inStream(at.run, runsFrom.prefix) || !inStream(at.res, resultsFrom.prefix)) return invalidCursor();

  const want = page.limit + 1;
  const [runRead, resRead] = await Promise.all([
    readListBelow(deps.table, runsFrom, at.run, { keep: want, scan: Number.POSITIVE_INFINITY }, keep),
    readListBelow(deps.table, resultsFrom, at.res, { keep: want, scan: RESULTS_SCANNED }, (item) => {
      if (!keep(item)) return false;
      const result = parseResult(item);
      return result.success && result.pinged === true;
    }),
  ]);
  const runs: Entry[] = runRead.kept.map((item) => {
    const run = parseRun(item);
    return { atMs: Date.parse(run.started_at ?? run.ended_at ?? ''), sk: item.sk, run };
  });
  const pinged = resRead.kept.map(runOfPinged);
  // Results not yet scanned are no newer than the last one scanned: a run older than it waits.
  const lastScanned = resRead.scanned.at(-1);
  const frontierMs =
    resRead.exhausted || !lastScanned ? Number.NEGATIVE_INFINITY : runOfPinged(lastScanned).atMs;

  const out: RunRecord[] = [];
  const twins = new Set(at.twin ? [at.twin] : []);
  let [i, j] = [0, 0];
  const next = { ...at };
  while (out.length < page.limit) {
    const run = runs[i];
    const ping = pinged[j];
    // The newest head first (a run before a plain success of the same time), while both are known.
    const takeRun = run && (ping ? run.atMs >= ping.atMs : resRead.exhausted || run.atMs >= frontierMs);
    if (run && takeRun) {
      out.push(run.run);
      i += 1;
      next.run = run.sk;
      next.twin = unknownDuration(run.run) ? (run.run.ended_at ?? '') : '';
      if (next.twin) twins.add(next.twin);
    } else if (ping && (run || runRead.exhausted)) {
      j += 1;
      // Stored before plain successes had no run item: its run item was given already.
      if (!twins.has(ping.run.ended_at ?? '')) out.push(ping.run);
    } else break;
  }
  // The results stream moves to the last scanned before the first plain success not given.
  const waiting = pinged[j];
  const upTo = waiting ? resRead.scanned.findIndex((item) => item.sk === waiting.sk) : resRead.scanned.length;
  next.res = resRead.scanned[upTo - 1]?.sk ?? at.res;

  const done = runRead.exhausted && i === runs.length && resRead.exhausted && j === pinged.length;
  return { runs: out, nextCursor: done ? null : await deps.cursors.seal(next, list) };
}
