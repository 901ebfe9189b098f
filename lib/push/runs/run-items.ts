import * as z from 'zod';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { PageSource } from '../../store/paging.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Item, Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `run` items: a push check's runs (DECISIONS.md "Cron runs (wave 6)"), one item per
 * run in the check's partition (`RUN#<run_id>`, ids ordered by the run's start, or its end when it
 * had no /start), expiring with the tenant's retention and purged with the check. A /start puts
 * its run `running` in the start's transaction; the run's end (a success, /fail or exit status)
 * writes it ended in the transaction of its result; an end with no start is a run of unknown
 * duration, written whole with its result. A /log of a running run updates its excerpt and `seen_at`.
 */

export const RUN_OUTCOMES = ['success', 'fail', 'exit', 'running', 'hung', 'missed'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export const RUN_FLAGS = [
  'too_short',
  'too_long',
  'overlap',
  'early',
  'hung',
  'anomalous_duration',
  'anomalous_start',
] as const;
export type RunFlag = (typeof RUN_FLAGS)[number];

/** The characters of a run's output kept as its excerpt: the tail, where a job says how it ended. */
const LOG_EXCERPT_CHARS = 1000;

const runSchema = z.object({
  id: z.string(),
  check_id: z.string(),
  /** The /start, or null for a run that reported only its end. */
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  /** end − start, when both are known. */
  duration_ms: z.number().int().nullable(),
  outcome: z.enum(RUN_OUTCOMES),
  exit_status: z.number().int().optional(),
  rid: z.string().optional(),
  /** The tail of the run's output (its end's body, else its latest /log's). */
  log_excerpt: z.string().optional(),
  /** A running run's latest /log (keepalive_seconds counts from it). */
  seen_at: z.string().optional(),
  flags: z.array(z.enum(RUN_FLAGS)),
});
export type RunRecord = z.infer<typeof runSchema>;

const RUN_PREFIX = 'RUN#';

const runItem = defineItem({
  type: itemType('run'),
  schema: runSchema,
  key: (k: { check_id: string; id: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${RUN_PREFIX}${k.id}`,
  }),
  ttl: (_r, c: { ttl: number }) => c.ttl,
  docKey: { check_id: '<chk_id>', id: '<run_id>' },
});

/** A new run's id, ordered by `atMs` (its start, or its end when it had none). */
export const newRunId = (atMs: number) => newId('run', atMs);

/** The tail of `body` kept as a run's excerpt, or undefined for an empty body. */
function logExcerpt(body: string): string | undefined {
  if (body === '') return undefined;
  return body.length <= LOG_EXCERPT_CHARS ? body : body.slice(body.length - LOG_EXCERPT_CHARS);
}

/** Expiry (epoch seconds) of a run: the tenant's retention after its start (or its end). */
const runTtl = (run: RunRecord, retentionDays: number) =>
  Math.floor(Date.parse(run.started_at ?? run.ended_at ?? isoTime(0)) / 1000) + retentionDays * 86_400;

/** The excerpt of a ping's body, as a run's fields (none for an empty body). */
export const withExcerpt = (body: string) => {
  const excerpt = logExcerpt(body);
  return excerpt ? { log_excerpt: excerpt } : {};
};

/**
 * The write of a run as it stands: the whole record. A run's end keeps the excerpt a /log left
 * when the end carries no output of its own (an update, which also creates the run of a start
 * that left no run item).
 */
export function runWrittenOp(run: RunRecord, retentionDays: number): WriteOp {
  const { log_excerpt, exit_status, rid, seen_at, ...always } = run;
  const optional = { log_excerpt, exit_status, rid, seen_at };
  const set = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined));
  const remove = (['exit_status'] as const).filter((name) => run[name] === undefined);
  return runItem.upsert(
    { check_id: run.check_id, id: run.id },
    { set: { ...always, ...set }, ...(remove.length > 0 ? { remove } : {}), ttl: runTtl(run, retentionDays) },
  );
}

/** The update of a running run by a /log ping: its sign of life and excerpt (only if the run item exists). */
export function runLoggedOp(
  checkId: string,
  runId: string,
  seenAtMs: number,
  excerpt: string | undefined,
): WriteOp {
  return runItem.update(
    { check_id: checkId, id: runId },
    {
      set: { seen_at: isoTime(seenAtMs), ...(excerpt ? { log_excerpt: excerpt } : {}) },
      condition: { kind: 'itemExists' },
    },
  );
}

/** The paged list of a check's runs, newest first (for sealed cursors). */
export function runsSource(checkId: string): PageSource {
  return { pk: checkPartition(checkId), prefix: RUN_PREFIX };
}

/** A run item read through a page of `runsSource`. */
export function parseRun(item: Item): RunRecord {
  return runItem.parse(item);
}

/** The check's latest runs, newest first (at most `limit`): what its learned normal is computed from. */
export async function latestRuns(table: Table, checkId: string, limit: number): Promise<RunRecord[]> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: RUN_PREFIX },
    direction: 'desc',
    limit,
  });
  return page.items.map(parseRun);
}
