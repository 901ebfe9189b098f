import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import type { Table, UpdateOp } from '../../store/table.ts';

/**
 * Owner of the `location_uptime` items: a located check's per-location counts for one UTC day
 * (`LOCUP#<chk>`, `<yyyy-mm-dd>#<location>`): how many slots the location reported and how many
 * of those it found up (a degraded success is up). Added to with every location result, in its
 * transaction; read by day range for uptime per location. They expire with the tenant's retention.
 */

const locationUptimeSchema = z.object({
  up: z.number().int().optional(),
  total: z.number().int().optional(),
});
export type LocationUptimeRecord = { day: string; location: string; up: number; total: number };

const partition = (checkId: string) => `LOCUP#${checkId}`;

const locationUptime = defineItem({
  type: itemType('location_uptime'),
  schema: locationUptimeSchema,
  key: (k: { check_id: string; day: string; location: string }) => ({
    pk: partition(k.check_id),
    sk: `${k.day}#${k.location}`,
  }),
  keyOf: null,
  docKey: { check_id: '<chk>', day: '<yyyy-mm-dd>', location: '<location name>' },
});

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Counts one location's report of a slot (at `slotMs`) in that day's item, created on first use. */
export function locationUptimeOp(input: {
  checkId: string;
  location: string;
  slotMs: number;
  up: boolean;
  retentionDays: number;
}): UpdateOp {
  return locationUptime.upsert(
    { check_id: input.checkId, day: dayOf(input.slotMs), location: input.location },
    {
      add: { total: 1, up: input.up ? 1 : 0 },
      ttl: Math.floor(input.slotMs / 1000) + (input.retentionDays + 1) * 86_400,
    },
  );
}

/** The check's per-location day counts for the days of [fromMs, toMs], by day then location. */
export async function locationUptimeDays(
  table: Table,
  checkId: string,
  fromMs: number,
  toMs: number,
): Promise<LocationUptimeRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: partition(checkId),
      sk: { op: 'between', low: `${dayOf(fromMs)}#`, high: `${dayOf(toMs)}#~` },
      cursor,
    }),
  );
  return items.map((item) => {
    const [day = '', location = ''] = String(item.sk).split('#');
    const counts = locationUptime.parse(item);
    return { day, location, up: counts.up ?? 0, total: counts.total ?? 0 };
  });
}
