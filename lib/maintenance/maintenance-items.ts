import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantItemKeys, tenantPk } from '../store/partitions.ts';
import type { Item, Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `maintenance_window`: a tenant's maintenance windows (DECISIONS.md "Operations features
 * (wave 3)"), items of the tenant partition under `MAINT#<mnt_id>` (purged with the tenant). A
 * tenant has few, so every evaluation reads them all in one query. Whether a window is active is
 * computed when read (schedule.ts), never stored.
 */

/** Windows one tenant may keep; one more is 403 LIMIT_EXCEEDED (each evaluation reads them all). */
export const MAX_WINDOWS_PER_TENANT = 100;

/** The sizes a window's lists and name are bounded by (request-schemas.ts checks them). */
export const WINDOW_LIMITS = {
  entityIds: 100,
  blueprintSlugs: 20,
  name: 100,
  /** The public note's Markdown, in characters. */
  publicNote: 2000,
  /** How long before each run a recurring window is announced, at most (30 days). */
  announceLeadSeconds: 30 * 24 * 3600,
} as const;

const windowSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  entity_ids: z.array(z.string()),
  blueprint_slugs: z.array(z.string()),
  include_dependents: z.boolean(),
  /** One-off windows: both set (ISO UTC); recurring ones: both null. */
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  /** Recurring windows: a 5-field cron expression, read in `timezone`; null for one-off ones. */
  cron: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  timezone: z.string().nullable(),
  /**
   * Status-page notices (DECISIONS.md "Status-page communication (wave 5)"). Windows stored before
   * them read as not announced, with nothing set.
   */
  announce: z.boolean().default(false),
  /** One-off windows: shown from this time (ISO UTC, at or before starts_at); null: from when announced. */
  announce_from: z.string().nullable().default(null),
  /** Recurring windows: each run is shown from this many seconds before it starts; null for one-off ones. */
  announce_lead_seconds: z.number().int().nullable().default(null),
  /** When `announce` last turned on (the announcement's moment when announce_from is null or earlier). */
  announced_at: z.string().nullable().default(null),
  /** Markdown (the page incidents' subset) shown on the pages; maintenance only stores it. */
  public_note: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: an update holds only over the version it read. */
  version: z.number().int(),
});
export type WindowRecord = z.output<typeof windowSchema>;

const WINDOW_PREFIX = 'MAINT#';

const maintenanceWindow = defineItem({
  type: itemType('maintenance_window'),
  schema: windowSchema,
  ...tenantItemKeys(WINDOW_PREFIX, '<mnt_id>'),
});

/** One window of the tenant (consistent), or undefined. */
export function getWindow(table: Table, tenantId: string, id: string): Promise<WindowRecord | undefined> {
  return maintenanceWindow.get(table, { tenant_id: tenantId, id }, { consistent: true });
}

/** Every window of the tenant, oldest first (ids are time-ordered); bounded by the per-tenant limit. */
export async function listWindows(
  table: Table,
  tenantId: string,
  options: { consistent?: boolean } = {},
): Promise<WindowRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: WINDOW_PREFIX },
        consistent: options.consistent ?? false,
        cursor,
      }),
    MAX_WINDOWS_PER_TENANT * 2,
  );
  return maintenanceWindow.parseAll(items);
}

/** The put of a new window (it must not exist yet). */
export function windowCreatedOp(record: WindowRecord): WriteOp {
  return maintenanceWindow.put(record, { kind: 'itemNotExists' });
}

/** The put of a changed window over the version `readVersion` it was read at. */
export function windowReplacedOp(record: WindowRecord, readVersion: number): WriteOp {
  return maintenanceWindow.put(record, { kind: 'compare', attr: 'version', op: '=', value: readVersion });
}

/** The delete of a window (`itemExists`: a window already gone fails the condition). */
export function windowDeletedOp(tenantId: string, id: string): WriteOp {
  return maintenanceWindow.delete({ tenant_id: tenantId, id }, { kind: 'itemExists' });
}

/** The window of a change-feed image, or undefined for another item type. */
export function windowOfImage(image: Item | undefined): WindowRecord | undefined {
  return image && maintenanceWindow.is(image) ? maintenanceWindow.parse(image) : undefined;
}
