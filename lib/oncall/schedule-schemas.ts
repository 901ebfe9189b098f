import * as z from 'zod';
import {
  layerInputSchema,
  overrideInputSchema,
  SCHEDULE_LIMITS,
  timeZoneSchema,
} from '../domain/schedules.ts';
import { idSchema, namesResource } from '../http/route-schemas.ts';

/** Request shapes of the schedule routes; unknown fields are rejected (400). */

/** The longest window `GET /v1/schedules/{id}/oncall?from=&to=` answers. */
export const SHIFTS_MAX_DAYS = 93;

export const scheduleParams = z.object({ id: namesResource(idSchema('sch'), 'schedule') });
export const overrideParams = z.object({
  id: namesResource(idSchema('sch'), 'schedule'),
  override_id: namesResource(idSchema('ovr'), 'override'),
});

/** A schedule as created or replaced: name, zone and layers (lowest first; the last listed wins). */
export const scheduleBody = z.strictObject({
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(100),
  time_zone: timeZoneSchema.meta({ description: 'IANA name: rotations hand over at wall-clock times here' }),
  layers: z.array(layerInputSchema).max(SCHEDULE_LIMITS.layers),
});
export type ScheduleBody = z.output<typeof scheduleBody>;

export const overrideBody = overrideInputSchema;

const instantQuery = z.iso
  .datetime({ offset: true, message: 'Give a time as ISO 8601 with a zone (…Z).' })
  .meta({ description: 'ISO 8601' });

/** `?at=` (one instant, default now) or `?from=&to=` (the shifts of a window), not both. */
export const shiftsQuery = z
  .strictObject({ at: instantQuery.optional(), from: instantQuery.optional(), to: instantQuery.optional() })
  .superRefine((q, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (q.at !== undefined && (q.from !== undefined || q.to !== undefined))
      return issue('at', 'Give either at, or from and to.');
    if ((q.from === undefined) !== (q.to === undefined))
      return issue(q.from === undefined ? 'from' : 'to', 'Give from and to together.');
    if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) issue('to', 'to must be after from.');
  });
export type ShiftsQuery = z.output<typeof shiftsQuery>;
