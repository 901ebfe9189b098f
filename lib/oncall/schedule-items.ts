import * as z from 'zod';
import { rotaSchema } from '../domain/schedules.ts';
import { tenantItems } from '../store/child-items.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantItemKeys } from '../store/partitions.ts';
import type { Item, Table } from '../store/table.ts';

/**
 * Owner of `oncall_schedule` (DECISIONS.md "On-call (wave 5)"): a tenant's on-call schedule, its
 * layers and overrides inside it (bounded: 10 layers, 500 overrides, far below an item's 400 KB),
 * in the tenant partition under `ONCALL#<sch_id>` (purged with the tenant). Who is on call is
 * computed when read (final-schedule.ts), never stored.
 */

/** Schedules one tenant may keep; one more is 403 LIMIT_EXCEEDED. */
export const MAX_SCHEDULES_PER_TENANT = 50;

const scheduleSchema = rotaSchema.extend({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type ScheduleRecord = z.infer<typeof scheduleSchema>;

const PREFIX = 'ONCALL#';

const schedule = defineItem({
  type: itemType('oncall_schedule'),
  schema: scheduleSchema,
  ...tenantItemKeys(PREFIX, '<sch_id>'),
});

const schedulesStore = tenantItems(schedule, {
  key: (tenant_id: string, id: string) => ({ tenant_id, id }),
  prefix: PREFIX,
  maxPerTenant: MAX_SCHEDULES_PER_TENANT,
});

/** One schedule of the tenant (consistent), or undefined. */
export const getSchedule = (
  table: Table,
  tenantId: string,
  id: string,
): Promise<ScheduleRecord | undefined> => schedulesStore.get(table, tenantId, id);

/** Every schedule of the tenant, oldest first (ids are time-ordered); bounded by the per-tenant limit. */
export const listSchedules = (table: Table, tenantId: string): Promise<ScheduleRecord[]> =>
  schedulesStore.list(table, tenantId);

/** The put of a new schedule (it must not exist yet). */
export const scheduleCreatedOp = schedulesStore.createdOp;

/** The put of a changed schedule over the version `readVersion` it was read at. */
export const scheduleReplacedOp = schedulesStore.replacedOp;

/** The delete of a schedule (`itemExists`: one already gone fails the condition). */
export const scheduleDeletedOp = schedulesStore.deletedOp;

/** The schedule a change-feed image holds, or undefined when the image is another item's. */
export function scheduleOfImage(image: Item | undefined): ScheduleRecord | undefined {
  return image && schedule.is(image) ? schedule.parse(image) : undefined;
}
