import * as z from 'zod';

/** One slot of one cell: what the generator sends and the worker runs (queue messages carry it). */
export const cellJobSchema = z.strictObject({
  kind: z.literal('cell'),
  tenant_id: z.string(),
  cell_id: z.string(),
  shard: z.number().int().min(0),
  /** The slot (ms): the idempotency key of its results. */
  slot_ms: z.number().int(),
  /**
   * A one-off probe of this member alone (a new, enabled or re-targeted check, or a manual run):
   * an extra slot of its own, beside the cell's regular ones (cell-one-off.ts).
   */
  check_id: z.string().optional(),
  /** The one-off was asked for (POST /v1/checks/{id}/run): its result says `manual: true`. */
  manual: z.literal(true).optional(),
});
export type CellJob = z.infer<typeof cellJobSchema>;

/** A cell job's queue id (its idempotency key): one per cell and slot, and member for a one-off. */
export function cellJobId(job: CellJob): string {
  return `cell:${job.cell_id}:${job.slot_ms}${job.check_id ? `:${job.check_id}` : ''}`;
}
