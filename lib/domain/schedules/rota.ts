import * as z from 'zod';
import { isTimeZone } from './cron.ts';

/**
 * An on-call schedule as DECISIONS.md "On-call (wave 5)" gives it: a time zone, ordered layers
 * (the last listed is the highest: it wins wherever it has someone) and overrides, which win over
 * every layer. A layer rotates its members in order at wall-clock handoffs in the schedule's zone
 * (a 09:00 handoff stays 09:00 across DST), may start and end, and may be restricted to windows of
 * the week. The final schedule is computed from this (final-schedule.ts), never stored per day.
 */

export const SCHEDULE_LIMITS = {
  layers: 10,
  members: 50,
  restrictions: 14,
  overrides: 500,
  /** The longest custom rotation: four weeks. */
  maxLengthHours: 672,
} as const;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** True for a real calendar date (`2026-02-30` is not): the date read back from its UTC day is itself. */
function isCalendarDate(value: string): boolean {
  const [y = 0, m = 0, d = 0] = value.split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** "HH:MM" on a 24-hour clock; `to` of a restriction may also be "24:00" (the end of the day). */
const clock = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Give a time as HH:MM (00:00 to 23:59).');
const clockOrMidnight = z
  .string()
  .regex(/^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/, 'Give a time as HH:MM (00:00 to 24:00).');
const localDate = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'Give a date as YYYY-MM-DD.')
  .refine(isCalendarDate, 'Give a real calendar date.');
const instant = z.iso.datetime({ offset: true, message: 'Give a time as ISO 8601 with a zone (…Z).' });

const rotationSchema = z
  .object({
    type: z.enum(['daily', 'weekly', 'custom']),
    /** Custom rotations only: wall-clock hours a shift lasts (12 gives 09:00–21:00–09:00). */
    length_hours: z.number().int().min(1).max(SCHEDULE_LIMITS.maxLengthHours).optional(),
    /** The wall-clock time of every handoff, in the schedule's zone. */
    handoff: clock,
    /** The local date of the first handoff: the first member's shift starts then at `handoff`. */
    start: localDate,
  })
  .superRefine((rotation, ctx) => {
    if (rotation.type === 'custom' && rotation.length_hours === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['length_hours'],
        message: 'A custom rotation needs length_hours.',
      });
    if (rotation.type !== 'custom' && rotation.length_hours !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['length_hours'],
        message: `A ${rotation.type} rotation has a fixed length: leave length_hours out.`,
      });
  });
export type Rotation = z.infer<typeof rotationSchema>;

/** The layer is on only inside these windows: on `days`, from `from` to `to` (past midnight when `to` ≤ `from`). */
const restrictionSchema = z.object({
  days: z.array(z.enum(WEEKDAYS)).min(1).max(7),
  from: clock,
  to: clockOrMidnight,
});
export type Restriction = z.infer<typeof restrictionSchema>;

const endsAfterStart = (span: { starts_at?: string | undefined; ends_at?: string | undefined }) =>
  !span.starts_at || !span.ends_at || Date.parse(span.starts_at) < Date.parse(span.ends_at);
const endsAfterStartIssue = { path: ['ends_at'], message: 'ends_at must be after starts_at.' };

const layerFields = {
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(100),
  /** User ids in rotation order; one person may appear more than once. */
  members: z.array(z.string().min(1).max(64)).min(1).max(SCHEDULE_LIMITS.members),
  rotation: rotationSchema,
  restrictions: z.array(restrictionSchema).max(SCHEDULE_LIMITS.restrictions).optional(),
  starts_at: instant.optional(),
  ends_at: instant.optional(),
};

/** A layer as a request gives it: without an id, a new layer gets one (a layer's id stays across edits). */
export const layerInputSchema = z
  .strictObject({ id: z.string().min(1).max(64).optional(), ...layerFields })
  .refine(endsAfterStart, endsAfterStartIssue);

const layerSchema = z
  .object({ id: z.string().min(1).max(64), ...layerFields })
  .refine(endsAfterStart, endsAfterStartIssue);
export type Layer = z.infer<typeof layerSchema>;

/** An override as a request gives it (its id is made when it is added). */
export const overrideInputSchema = z
  .strictObject({ user_id: z.string().min(1).max(64), starts_at: instant, ends_at: instant })
  .refine(endsAfterStart, endsAfterStartIssue);

const overrideSchema = z
  .object({
    id: z.string().min(1).max(64),
    user_id: z.string().min(1).max(64),
    starts_at: instant,
    ends_at: instant,
  })
  .refine(endsAfterStart, endsAfterStartIssue);
export type Override = z.infer<typeof overrideSchema>;

export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, 'Give an IANA time zone, such as Europe/Berlin or UTC.');

/** What the final schedule is computed from: the zone, the layers (lowest first) and the overrides. */
export const rotaSchema = z.object({
  time_zone: timeZoneSchema,
  layers: z.array(layerSchema).max(SCHEDULE_LIMITS.layers),
  overrides: z.array(overrideSchema).max(SCHEDULE_LIMITS.overrides),
});
export type Rota = z.infer<typeof rotaSchema>;
