import * as z from 'zod';
import type { User } from '../auth/records.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import type { ShiftSource } from './final-schedule.ts';
import type { ScheduleRecord } from './schedule-items.ts';

/** Response bodies of the schedule routes: users named (id, name, e-mail), never bare ids alone. */

export const personSchema = z
  .strictObject({
    id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({
    id: 'SchedulePerson',
    description: 'A member; name and email are null for someone no longer in the account',
  });
type Person = z.infer<typeof personSchema>;

/** Where a shift comes from: a layer (named), or an override (layer null). */
const whence = {
  layer: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  override_id: z.string().nullable(),
};

const restrictionSchema = z.strictObject({ days: z.array(z.string()), from: z.string(), to: z.string() });

export const publicScheduleSchema = z
  .strictObject({
    id: idSchema('sch'),
    name: z.string(),
    time_zone: z.string(),
    layers: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        members: z.array(personSchema),
        rotation: z.strictObject({
          type: z.enum(['daily', 'weekly', 'custom']),
          length_hours: z.number().int().optional(),
          handoff: z.string(),
          start: z.string(),
        }),
        restrictions: z.array(restrictionSchema).optional(),
        starts_at: z.string().optional(),
        ends_at: z.string().optional(),
      }),
    ),
    overrides: z.array(
      z.strictObject({ id: idSchema('ovr'), user: personSchema, starts_at: z.string(), ends_at: z.string() }),
    ),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Schedule' });
export type PublicSchedule = z.infer<typeof publicScheduleSchema>;

export const scheduleListSchema = z.strictObject({ schedules: z.array(publicScheduleSchema) });

export const onCallSchema = z
  .strictObject({
    at: timestampSchema,
    user: personSchema.nullable().meta({ description: 'Null when nobody is on call then' }),
    ...whence,
    until: timestampSchema.nullable().meta({ description: 'When that changes; null: not within 35 days' }),
  })
  .meta({ id: 'OnCall' });
export type OnCallView = z.infer<typeof onCallSchema>;

export const shiftsSchema = z
  .strictObject({
    from: timestampSchema,
    to: timestampSchema,
    shifts: z.array(
      z.strictObject({
        user: personSchema,
        ...whence,
        start: timestampSchema,
        end: timestampSchema,
      }),
    ),
    layers: z
      .array(
        z.strictObject({
          id: z.string(),
          name: z.string(),
          shifts: z.array(
            z.strictObject({ user: personSchema, start: timestampSchema, end: timestampSchema }),
          ),
        }),
      )
      .meta({
        description:
          'Each layer’s own shifts in the window (lowest first), before higher layers and overrides: what the final schedule is made of',
      }),
  })
  .meta({
    id: 'ScheduleShifts',
    description: 'The final schedule of the window; times with nobody on call are left out',
  });
export type ShiftsView = z.infer<typeof shiftsSchema>;

/** The layer or override a shift of `record` comes from, as answered. */
export function whenceOf(
  record: ScheduleRecord,
  source: ShiftSource | null,
): Pick<OnCallView, 'layer' | 'override_id'> {
  if (source === null) return { layer: null, override_id: null };
  if (source.type === 'override') return { layer: null, override_id: source.override_id };
  const layer = record.layers.find((l) => l.id === source.layer_id);
  return { layer: { id: source.layer_id, name: layer?.name ?? '' }, override_id: null };
}

/** Names a user id from the tenant's members (a removed one keeps its id, without a name). */
export type UserNamer = (userId: string) => Person;

export function userNamer(users: User[]): UserNamer {
  const byId = new Map(users.map((u) => [u.id, u]));
  return (id) => {
    const user = byId.get(id);
    return { id, name: user?.name ?? null, email: user?.email ?? null };
  };
}

/** A schedule as returned: its members and overrides named. */
export function publicSchedule(record: ScheduleRecord, name: UserNamer): PublicSchedule {
  return {
    id: record.id,
    name: record.name,
    time_zone: record.time_zone,
    layers: record.layers.map((layer) => ({ ...layer, members: layer.members.map(name) })),
    overrides: record.overrides.map((o) => ({
      id: o.id,
      user: name(o.user_id),
      starts_at: o.starts_at,
      ends_at: o.ends_at,
    })),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
