import * as z from 'zod';
import { locationOutcomeSchema } from '../../check-types/check-record.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import type { PageSource } from '../../store/paging.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Item, Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of the `result` items: one per recorded result, in the check's partition
 * (`RES#<checked_at or slot>#<res_id>`), immutable but for a located slot's breakdown (a
 * location's report that came after the slot was decided), expiring with the tenant's retention.
 */

export const resultSchema = z.object({
  id: z.string(),
  check_id: z.string(),
  status_code: z.number().int(),
  latency_ms: z.number().int(),
  success: z.boolean(),
  /** A degraded success (its error_message says why); absent otherwise. */
  degraded: z.boolean().optional(),
  error_message: z.string(),
  checked_at: z.string(),
  /** Recorded by the service (dead man's switch) rather than probed or pushed. */
  synthetic: z.boolean().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  /** A slot probed from several locations: each location's part (lib/domain/states/quorum.ts LocationOutcome). */
  locations: z.array(locationOutcomeSchema).optional(),
  /** Too few locations reported to decide the slot: stored, but it moved no state (success is false). */
  inconclusive: z.boolean().optional(),
  /** Probed on request (POST /v1/checks/{id}/run), not on the check's schedule. */
  manual: z.boolean().optional(),
  /**
   * A plain success reported to a ping URL (no body, run id or run): stored only as this result,
   * not also in the ping log (lib/push/pings/ping-service.ts); the log's latest ping reads it.
   */
  pinged: z.boolean().optional(),
});
export type ResultRecord = z.infer<typeof resultSchema>;

const RESULT_PREFIX = 'RES#';

const resultItem = defineItem({
  type: itemType('result'),
  schema: resultSchema,
  key: (k: { check_id: string; at: string; id: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${RESULT_PREFIX}${k.at}#${k.id}`,
  }),
  // Keyed by its slot when it has one; it expires with the tenant's retention.
  keyOf: (r, c: { slotAt: string | undefined; ttl: number }) => ({
    check_id: r.check_id,
    at: c.slotAt ?? r.checked_at,
    id: r.id,
  }),
  ttl: (_r, c) => c.ttl,
  docKey: { check_id: '<chk_id>', at: '<checked_at or slot>', id: '<res_id>' },
});

/**
 * The put of a result, only if absent. Keyed by its slot when it has one (`slotAt`), so a
 * redelivered job, probed again later, collides with the first result of that slot.
 */
export function resultRecordedOp(result: ResultRecord, input: { slotAt?: string; ttl: number }): WriteOp {
  return resultItem.put(result, { kind: 'itemNotExists' }, { slotAt: input.slotAt, ttl: input.ttl });
}

/** The result of a check's slot (keyed by the slot), strongly consistent; undefined before it is decided. */
export function readSlotResult(table: Table, checkId: string, slotAt: string, id: string) {
  return resultItem.get(table, { check_id: checkId, at: slotAt, id }, { consistent: true });
}

/** A decided slot's breakdown and message rewritten with a late location's part (only while the result exists). */
export function slotBreakdownOp(
  result: { check_id: string; id: string },
  slotAt: string,
  late: { locations: ResultRecord['locations']; message: string },
): WriteOp {
  return resultItem.update(
    { check_id: result.check_id, at: slotAt, id: result.id },
    { set: { locations: late.locations, error_message: late.message }, condition: { kind: 'itemExists' } },
  );
}

/** The paged list of a check's results, newest first (for sealed cursors). */
export function resultsSource(checkId: string): PageSource {
  return { pk: checkPartition(checkId), prefix: RESULT_PREFIX };
}

/** A result item read through a page of `resultsSource`. */
export function parseResult(item: Item): ResultRecord {
  return resultItem.parse(item);
}

/** The check's latest results, newest first (at most `limit`; eventually consistent). */
export async function latestResults(table: Table, checkId: string, limit: number): Promise<ResultRecord[]> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: RESULT_PREFIX },
    direction: 'desc',
    limit,
  });
  return page.items.flatMap((item) => {
    const result = resultSchema.safeParse(item);
    return result.success ? [result.data] : [];
  });
}

/** How many of a check's newest results `latestPingedResult` looks through. */
const PINGED_LOOK = 25;

/**
 * The newest plain success a ping URL recorded (`pinged`) among the check's newest PINGED_LOOK
 * results, strongly consistent; undefined when none is among them (the ping log's latest ping
 * compares it with its newest item: lib/push/log/ping-log-service.ts).
 */
export async function latestPingedResult(table: Table, checkId: string): Promise<ResultRecord | undefined> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: RESULT_PREFIX },
    direction: 'desc',
    limit: PINGED_LOOK,
    consistent: true,
  });
  for (const item of page.items) {
    const result = resultSchema.safeParse(item);
    if (result.success && result.data.pinged) return result.data;
  }
  return undefined;
}

/** The check's results stored at times from `from` to `to` (ISO, inclusive), at most `max` + 1, strongly consistent. */
export async function resultsBetween(
  table: Table,
  checkId: string,
  range: { from: string; to: string; max: number },
): Promise<ResultRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: checkPartition(checkId),
        sk: { op: 'between', low: `${RESULT_PREFIX}${range.from}`, high: `${RESULT_PREFIX}${range.to}` },
        cursor,
        consistent: true,
      }),
    range.max + 1,
  );
  return items.map((item) => resultItem.parse(item));
}
