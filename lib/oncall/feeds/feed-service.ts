import { listUsers, type User } from '../../auth/records.ts';
import type { Principal } from '../../domain/principal.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { LimitExceededError, NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { deleteHeld } from '../../store/held-writes.ts';
import type { Table } from '../../store/table.ts';
import { finalShifts, type ShiftSource } from '../final-schedule.ts';
import { getSchedule, listSchedules, type ScheduleRecord } from '../schedule-items.ts';
import { type FeedEvent, feedWindow, renderFeed } from './feed-calendar.ts';
import {
  type FeedRecord,
  feedCreatedOps,
  feedRevokedOps,
  findFeedByHash,
  listFeeds,
  MAX_FEEDS_PER_SCHEDULE,
  MAX_FEEDS_PER_TENANT,
  MAX_PERSON_FEEDS_PER_USER,
} from './feed-items.ts';
import { feedTokenHash, newFeedToken } from './feed-token.ts';

export interface FeedServiceDeps {
  table: Table;
  clock: Clock;
  /** False for a tenant gone or disabled by the operator: its feeds answer as unknown. */
  tenantLive: (tenantId: string) => Promise<boolean>;
}

/** A feed as its routes show it, with the schedule it follows (null: a person feed) and its people. */
export interface FeedView {
  record: FeedRecord;
  schedule: ScheduleRecord | undefined;
  users: User[];
}

/** How a person is named in a feed: their name, else their e-mail. */
const displayName = (users: User[], id: string) => {
  const user = users.find((u) => u.id === id);
  return user ? user.name.trim() || user.email : 'a former member';
};

const layerName = (schedule: ScheduleRecord, source: ShiftSource) =>
  source.type === 'override'
    ? 'Override'
    : `Layer: ${schedule.layers.find((l) => l.id === source.layer_id)?.name ?? ''}`;

/**
 * Calendar feeds of on-call schedules (issue 55 item 1): an admin makes a schedule's feed, anyone
 * their own person feed (their shifts in every schedule of the tenant); the URL's token is shown
 * once. Admins list and revoke every feed, members their own person feeds; a feed anyone else may
 * not see is a 404 to them. A revoked feed, or one whose maker left the account, answers 404 at once.
 */
export function createFeedService(deps: FeedServiceDeps) {
  const { table, clock } = deps;

  const visible = (principal: Principal, feed: FeedRecord) =>
    principal.role === 'admin' || (feed.kind === 'person' && feed.user_id === principal.userId);

  const create = async (
    principal: Principal,
    target: { kind: 'schedule'; schedule: ScheduleRecord } | { kind: 'person' },
    label: string | undefined,
  ): Promise<{ view: FeedView; token: string }> => {
    const feeds = await listFeeds(table, principal.tenantId);
    if (feeds.length >= MAX_FEEDS_PER_TENANT)
      throw new LimitExceededError(`an account keeps at most ${MAX_FEEDS_PER_TENANT} calendar feeds`);
    const schedule = target.kind === 'schedule' ? target.schedule : undefined;
    const mine = feeds.filter((f) =>
      schedule ? f.schedule_id === schedule.id : f.kind === 'person' && f.user_id === principal.userId,
    );
    const most = schedule ? MAX_FEEDS_PER_SCHEDULE : MAX_PERSON_FEEDS_PER_USER;
    if (mine.length >= most)
      throw new LimitExceededError(
        schedule
          ? `a schedule has at most ${most} calendar feeds: revoke one it no longer needs first`
          : `a person has at most ${most} calendar feeds: revoke one you no longer need first`,
      );
    const { token, hash, prefix } = newFeedToken();
    const now = clock.now();
    const record: FeedRecord = {
      id: newId('icf', now),
      tenant_id: principal.tenantId,
      kind: target.kind,
      schedule_id: schedule?.id ?? null,
      user_id: principal.userId,
      label: label ?? (schedule ? schedule.name : 'My on-call shifts'),
      token_hash: hash,
      prefix,
      created_at: isoTime(now),
    };
    await table.transact(feedCreatedOps(record));
    return { view: { record, schedule, users: await listUsers(table, principal.tenantId) }, token };
  };

  /** The events of a feed over its window, the calendar's name, and when its schedules last changed. */
  const contents = async (feed: FeedRecord, users: User[]) => {
    const { from, to } = feedWindow(clock.now());
    if (feed.kind === 'schedule') {
      const schedule = feed.schedule_id
        ? await getSchedule(table, feed.tenant_id, feed.schedule_id)
        : undefined;
      if (!schedule) return undefined;
      const events = finalShifts(schedule, from, to).map(
        (s): FeedEvent => ({
          scheduleId: schedule.id,
          userId: s.user_id,
          start: s.start,
          end: s.end,
          summary: `On call: ${displayName(users, s.user_id)}`,
          description: `${schedule.name} · ${layerName(schedule, s.source)}`,
        }),
      );
      return { name: `${schedule.name}: on call`, stamp: Date.parse(schedule.updated_at), events };
    }
    const schedules = await listSchedules(table, feed.tenant_id);
    const events = schedules.flatMap((schedule) =>
      finalShifts(schedule, from, to)
        .filter((s) => s.user_id === feed.user_id)
        .map(
          (s): FeedEvent => ({
            scheduleId: schedule.id,
            userId: s.user_id,
            start: s.start,
            end: s.end,
            summary: `On call: ${schedule.name}`,
            description: `${schedule.name} · ${layerName(schedule, s.source)}`,
          }),
        ),
    );
    const stamp = Math.max(Date.parse(feed.created_at), ...schedules.map((s) => Date.parse(s.updated_at)));
    return { name: `${displayName(users, feed.user_id)}: on call`, stamp, events };
  };

  return {
    /** A schedule's feed (the route is for admins). */
    async createForSchedule(principal: Principal, scheduleId: string, label?: string) {
      const schedule = await getSchedule(table, principal.tenantId, scheduleId);
      if (!schedule) throw new NotFoundError('schedule');
      return create(principal, { kind: 'schedule', schedule }, label);
    },

    /** The caller's own person feed. */
    async createForPerson(principal: Principal, label?: string) {
      return create(principal, { kind: 'person' }, label);
    },

    /** The feeds the caller may see, oldest first: an admin every feed, anyone else their person feeds. */
    async list(principal: Principal): Promise<FeedView[]> {
      const feeds = (await listFeeds(table, principal.tenantId)).filter((f) => visible(principal, f));
      const [schedules, users] = await Promise.all([
        listSchedules(table, principal.tenantId),
        listUsers(table, principal.tenantId),
      ]);
      return feeds.map((record) => ({
        record,
        schedule: schedules.find((s) => s.id === record.schedule_id),
        users,
      }));
    },

    /** Revokes a feed the caller may see (404 otherwise): its URL answers 404 from now on. */
    async revoke(principal: Principal, feedId: string): Promise<void> {
      const feed = (await listFeeds(table, principal.tenantId)).find((f) => f.id === feedId);
      if (!feed || !visible(principal, feed)) throw new NotFoundError('calendar feed');
      await deleteHeld(table, feedRevokedOps(feed), 'calendar feed');
    },

    /**
     * The iCalendar text of the feed `token` names, or undefined (malformed, unknown, revoked, its
     * tenant disabled, its maker gone from the account, or its schedule deleted: all alike).
     */
    async calendar(token: string): Promise<string | undefined> {
      const hash = feedTokenHash(token);
      const feed = hash ? await findFeedByHash(table, hash) : undefined;
      if (!feed || !(await deps.tenantLive(feed.tenant_id))) return undefined;
      const users = await listUsers(table, feed.tenant_id);
      if (!users.some((u) => u.id === feed.user_id)) return undefined;
      const found = await contents(feed, users);
      return found && renderFeed(found);
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
