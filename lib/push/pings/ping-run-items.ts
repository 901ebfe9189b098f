import * as z from 'zod';
import { type HeartbeatCheck, pushDeadline } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `ping_run` items: a push check's runs that pinged /start and have not ended yet, one
 * per run id (`?rid=`, or none), in the check's partition, each naming its run item
 * (lib/push/runs/run-items.ts). A /start puts it (a later start of the
 * same run id replaces it: the latest start counts, as in Healthchecks), the run's end reads it for
 * the run's duration and deletes it in the same transaction as its result, so one start is paired
 * with one end only. Healthchecks looks back 72 hours for a start: older ones expire (TTL).
 */

/** How far back an end looks for its start (Healthchecks' MAX_DURATION). */
export const MAX_RUN_MS = 72 * 3_600_000;

/** The sort key part of a start without a run id. */
const NO_RID = '-';

const PINGRUN_PREFIX = 'PINGRUN#';

const pingRunSchema = z.object({
  check_id: z.string(),
  rid: z.string().optional(),
  started_at: z.string(),
  /** The /start ping's id (its ping log item). */
  ping_id: z.string(),
  /** The run's item (lib/push/runs/run-items.ts); absent on starts stored before runs were kept. */
  run_id: z.string().optional(),
  /** The start came while another run was running (overlap: alert): the run keeps the flag. */
  overlap: z.boolean().optional(),
  /** The start came too long before its schedule (early_seconds): the run keeps the flag. */
  early: z.boolean().optional(),
});

const pingRun = defineItem({
  type: itemType('ping_run'),
  schema: pingRunSchema,
  key: (k: { check_id: string; rid?: string | undefined }) => ({
    pk: checkPartition(k.check_id),
    sk: `${PINGRUN_PREFIX}${k.rid ?? NO_RID}`,
  }),
  ttl: (r) => Math.floor(Date.parse(r.started_at) / 1000) + MAX_RUN_MS / 1000,
  docKey: { check_id: '<chk_id>', rid: '<rid or ->' },
});

export interface OpenRun {
  checkId: string;
  rid?: string | undefined;
  startedAtMs: number;
  runId?: string | undefined;
  overlap?: boolean | undefined;
  early?: boolean | undefined;
}

const openRunOf = (checkId: string, run: z.infer<typeof pingRunSchema>): OpenRun => ({
  checkId,
  rid: run.rid,
  startedAtMs: Date.parse(run.started_at),
  ...(run.run_id ? { runId: run.run_id } : {}),
  ...(run.overlap ? { overlap: true } : {}),
  ...(run.early ? { early: true } : {}),
});

/** The put of a started run (the /start ping's transaction). */
export function runStartedOp(input: {
  checkId: string;
  rid?: string | undefined;
  startedAtMs: number;
  pingId: string;
  runId: string;
  /** The flags of its start (run-items.ts' names): overlap and early are kept. */
  flags: readonly string[];
}): WriteOp {
  return pingRun.put({
    check_id: input.checkId,
    ...(input.rid ? { rid: input.rid } : {}),
    started_at: isoTime(input.startedAtMs),
    ping_id: input.pingId,
    run_id: input.runId,
    ...(input.flags.includes('overlap') ? { overlap: true } : {}),
    ...(input.flags.includes('early') ? { early: true } : {}),
  });
}

/** The run of `rid` (or of no run id) started and not ended, if any. */
export async function openRun(
  table: Table,
  checkId: string,
  rid: string | undefined,
): Promise<OpenRun | undefined> {
  const run = await pingRun.get(table, { check_id: checkId, rid }, { consistent: true });
  return run ? openRunOf(checkId, run) : undefined;
}

/**
 * The runs of the check still running at `nowMs` (whatever their run ids), newest start first:
 * started, not ended, and within the time a started run may take (after it the dead man's switch
 * has told it did not finish). A run silent past its keepalive still counts: its process may
 * well be there.
 */
export async function runningRuns(
  table: Table,
  checkId: string,
  check: HeartbeatCheck,
  nowMs: number,
): Promise<OpenRun[]> {
  const allowance = { ...check, config: { ...check.config, keepalive_seconds: undefined } };
  return (await openRuns(table, checkId)).filter((r) => {
    const deadline = pushDeadline(allowance, { run_started_at: isoTime(r.startedAtMs) });
    return nowMs - r.startedAtMs < MAX_RUN_MS && (deadline === null || deadline.atMs > nowMs);
  });
}

/** Every run of the check started and not ended (whatever its run id), newest start first. */
export async function openRuns(table: Table, checkId: string): Promise<OpenRun[]> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: PINGRUN_PREFIX },
    consistent: true,
  });
  return page.items
    .map((item) => openRunOf(checkId, pingRun.parse(item)))
    .sort((a, b) => b.startedAtMs - a.startedAtMs);
}

/** The delete of an ended run (the end's transaction). */
export function runEndedOp(run: OpenRun): WriteOp {
  return pingRun.delete({ check_id: run.checkId, rid: run.rid });
}

/**
 * What an end (of `rid`, or of no run id) reads of the open runs: its own, and the start of the
 * newest run still open besides it (within the time a run may be paired with its end), which the
 * check's state keeps as its started run: the open-run pointer belongs to the runs, so an end of
 * one run leaves another's start, and its deadline, in place.
 */
export async function endingRun(
  table: Table,
  checkId: string,
  rid: string | undefined,
  nowMs: number,
): Promise<{ open: OpenRun | undefined; openRunAt: string | null }> {
  const runs = await openRuns(table, checkId);
  const open = runs.find((r) => r.rid === rid);
  const other = runs.find((r) => r !== open && nowMs - r.startedAtMs < MAX_RUN_MS);
  return { open, openRunAt: other ? isoTime(other.startedAtMs) : null };
}
