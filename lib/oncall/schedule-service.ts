import { listUsers } from '../auth/records.ts';
import type { Principal } from '../domain/principal.ts';
import type { Layer, Override } from '../domain/schedules.ts';
import { SCHEDULE_LIMITS } from '../domain/schedules.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { ForbiddenError, LimitExceededError, NotFoundError, ValidationError } from '../platform/errors.ts';
import { newId, newRecordStamp } from '../platform/ids.ts';
import { deleteHeld, replaceHeld } from '../store/held-writes.ts';
import type { Table } from '../store/table.ts';
import { feedsDeletedOps, listFeeds } from './feeds/feed-items.ts';
import { finalShifts, onCallAt } from './final-schedule.ts';
import { layerShifts } from './layer-shifts.ts';
import {
  getSchedule,
  listSchedules,
  MAX_SCHEDULES_PER_TENANT,
  type ScheduleRecord,
  scheduleCreatedOp,
  scheduleDeletedOp,
  scheduleReplacedOp,
} from './schedule-items.ts';
import {
  type OnCallView,
  type PublicSchedule,
  publicSchedule,
  type ShiftsView,
  type UserNamer,
  userNamer,
  whenceOf,
} from './schedule-responses.ts';
import { type ScheduleBody, SHIFTS_MAX_DAYS, type ShiftsQuery } from './schedule-schemas.ts';

/** Overrides that ended this long ago are dropped when a schedule is written (the bound stays for live ones). */
const KEEP_ENDED_OVERRIDES_MS = 90 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

/**
 * On-call schedules of a tenant (issue 55 item 1): admins write schedules (the router's `role`),
 * anyone reads them and asks who is on call; a person adds or removes overrides for themselves, an
 * admin for anyone. Every user a schedule names must be a member of the tenant.
 */
export function createScheduleService(deps: { table: Table; clock: Clock }) {
  const { table, clock } = deps;

  const require = async (tenantId: string, id: string) => {
    const found = await getSchedule(table, tenantId, id);
    if (!found) throw new NotFoundError('schedule');
    return found;
  };
  const namer = async (tenantId: string): Promise<UserNamer> => userNamer(await listUsers(table, tenantId));

  /** 400 naming the field when a schedule names someone who is not a member of the tenant. */
  const requireMembers = async (tenantId: string, named: { path: string; userId: string }[]) => {
    const members = new Set((await listUsers(table, tenantId)).map((u) => u.id));
    const strangers = named.filter((n) => !members.has(n.userId));
    if (strangers.length > 0)
      throw new ValidationError(
        `${strangers[0]?.path}: not a member of this account`,
        strangers.map((s) => ({ path: s.path, message: 'No member of this account has this id.' })),
      );
  };

  const layersOf = (body: ScheduleBody, before?: ScheduleRecord): Layer[] => {
    const known = new Set(before?.layers.map((l) => l.id) ?? []);
    const now = clock.now();
    return body.layers.map(({ id, ...layer }) => ({
      ...layer,
      id: id && known.has(id) ? id : newId('lyr', now),
    }));
  };
  const liveOverrides = (overrides: Override[]) =>
    overrides.filter((o) => Date.parse(o.ends_at) > clock.now() - KEEP_ENDED_OVERRIDES_MS);

  const write = async (current: ScheduleRecord, next: ScheduleRecord) =>
    replaceHeld(table, [scheduleReplacedOp(next, current.version)], {
      name: 'schedule',
      exists: async () => (await getSchedule(table, current.tenant_id, current.id)) !== undefined,
    });

  return {
    async list(tenantId: string): Promise<PublicSchedule[]> {
      const name = await namer(tenantId);
      return (await listSchedules(table, tenantId)).map((s) => publicSchedule(s, name));
    },

    async get(tenantId: string, id: string): Promise<PublicSchedule> {
      return publicSchedule(await require(tenantId, id), await namer(tenantId));
    },

    async create(tenantId: string, body: ScheduleBody): Promise<PublicSchedule> {
      await requireMembers(tenantId, memberPaths(body));
      if ((await listSchedules(table, tenantId)).length >= MAX_SCHEDULES_PER_TENANT)
        throw new LimitExceededError(`a tenant keeps at most ${MAX_SCHEDULES_PER_TENANT} schedules`);
      const { id, at } = newRecordStamp('sch', clock);
      const record: ScheduleRecord = {
        id,
        tenant_id: tenantId,
        name: body.name,
        time_zone: body.time_zone,
        layers: layersOf(body),
        overrides: [],
        created_at: at,
        updated_at: at,
        version: 1,
      };
      await table.transact([scheduleCreatedOp(record)]);
      return publicSchedule(record, await namer(tenantId));
    },

    /** Replaces name, zone and layers (overrides are kept: they have routes of their own). */
    async replace(tenantId: string, id: string, body: ScheduleBody): Promise<PublicSchedule> {
      const current = await require(tenantId, id);
      await requireMembers(tenantId, memberPaths(body));
      const next: ScheduleRecord = {
        ...current,
        name: body.name,
        time_zone: body.time_zone,
        layers: layersOf(body, current),
        overrides: liveOverrides(current.overrides),
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      };
      await write(current, next);
      return publicSchedule(next, await namer(tenantId));
    },

    /** Deletes a schedule and revokes its calendar feeds (at most MAX_FEEDS_PER_SCHEDULE) with it. */
    async remove(tenantId: string, id: string): Promise<void> {
      const feeds = (await listFeeds(table, tenantId)).filter((f) => f.schedule_id === id);
      await deleteHeld(table, [scheduleDeletedOp(tenantId, id), ...feedsDeletedOps(feeds)], 'schedule');
    },

    /** Puts `user_id` on call for a period; a member may put only themselves, an admin anyone. */
    async addOverride(
      principal: Principal,
      id: string,
      input: Omit<Override, 'id'>,
    ): Promise<PublicSchedule> {
      if (principal.role !== 'admin' && input.user_id !== principal.userId)
        throw new ForbiddenError(
          'only an admin can put someone else on call: override yourself, or ask an admin',
        );
      const current = await require(principal.tenantId, id);
      await requireMembers(principal.tenantId, [{ path: 'user_id', userId: input.user_id }]);
      const overrides = liveOverrides(current.overrides);
      if (overrides.length >= SCHEDULE_LIMITS.overrides)
        throw new LimitExceededError(`a schedule keeps at most ${SCHEDULE_LIMITS.overrides} overrides`);
      const override: Override = { id: newId('ovr', clock.now()), ...input };
      const next = {
        ...current,
        overrides: [...overrides, override],
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      };
      await write(current, next);
      return publicSchedule(next, await namer(principal.tenantId));
    },

    /** Removes an override: its own person or an admin. */
    async removeOverride(principal: Principal, id: string, overrideId: string): Promise<void> {
      const current = await require(principal.tenantId, id);
      const override = current.overrides.find((o) => o.id === overrideId);
      if (!override) throw new NotFoundError('override');
      if (principal.role !== 'admin' && override.user_id !== principal.userId)
        throw new ForbiddenError('only an admin can remove someone else’s override');
      const overrides = current.overrides.filter((o) => o.id !== overrideId);
      await write(current, {
        ...current,
        overrides,
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      });
    },

    /** Who is on call at `at` (default now). */
    async onCall(tenantId: string, id: string, at: number | undefined): Promise<OnCallView> {
      const found = await require(tenantId, id);
      const when = at ?? clock.now();
      const now = onCallAt(found, when);
      const name = await namer(tenantId);
      return {
        at: isoTime(when),
        user: now.user_id ? name(now.user_id) : null,
        ...whenceOf(found, now.source),
        until: now.until === null ? null : isoTime(now.until),
      };
    },

    /** The final shifts of [from, to), at most SHIFTS_MAX_DAYS long, and each layer's own (the console's timeline). */
    async shifts(
      tenantId: string,
      id: string,
      query: Required<Pick<ShiftsQuery, 'from' | 'to'>>,
    ): Promise<ShiftsView> {
      const from = Date.parse(query.from);
      const to = Date.parse(query.to);
      if (to - from > SHIFTS_MAX_DAYS * DAY_MS)
        throw ValidationError.field('to', `Ask for at most ${SHIFTS_MAX_DAYS} days at a time.`);
      const found = await require(tenantId, id);
      const name = await namer(tenantId);
      return {
        from: isoTime(from),
        to: isoTime(to),
        shifts: finalShifts(found, from, to).map((s) => ({
          user: name(s.user_id),
          ...whenceOf(found, s.source),
          start: isoTime(s.start),
          end: isoTime(s.end),
        })),
        layers: found.layers.map((layer) => ({
          id: layer.id,
          name: layer.name,
          shifts: layerShifts(layer, found.time_zone, from, to).map((s) => ({
            user: name(s.user_id),
            start: isoTime(s.start),
            end: isoTime(s.end),
          })),
        })),
      };
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;

function memberPaths(body: ScheduleBody): { path: string; userId: string }[] {
  return body.layers.flatMap((layer, i) =>
    layer.members.map((userId, j) => ({ path: `layers.${i}.members.${j}`, userId })),
  );
}
