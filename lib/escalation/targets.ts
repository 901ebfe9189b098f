import { getUser } from '../auth/records.ts';
import { isTimeZone } from '../domain/schedules.ts';
import { onCallAt } from '../oncall/final-schedule.ts';
import { getSchedule } from '../oncall/schedule-items.ts';
import type { Table } from '../store/table.ts';
import { getTeam } from '../teams/team-items.ts';
import type { PolicyTarget } from './policy-items.ts';

/** Whom one target of a step reaches when the step comes: people (by user id), or a channel. */
export type Addressee =
  | { user_id: string; target: PolicyTarget }
  | { channel_id: string; target: PolicyTarget };

/**
 * The addressees of a step's targets at `atMs`: a schedule's person on call then (its final
 * schedule, lib/oncall), a person, every member of a team, a channel; each person and channel
 * once (the first target naming them is the one logged). A schedule or team gone since, or a
 * schedule with nobody on call, reaches nobody (`nobody` lists those targets, for the log).
 */
export async function addresseesOf(
  table: Table,
  tenantId: string,
  targets: readonly PolicyTarget[],
  atMs: number,
): Promise<{ addressees: Addressee[]; nobody: PolicyTarget[] }> {
  const addressees: Addressee[] = [];
  const nobody: PolicyTarget[] = [];
  const seen = new Set<string>();
  const add = (target: PolicyTarget, users: readonly string[]) => {
    if (users.length === 0) nobody.push(target);
    for (const user_id of users) {
      if (seen.has(`u:${user_id}`)) continue;
      seen.add(`u:${user_id}`);
      addressees.push({ user_id, target });
    }
  };
  for (const target of targets) {
    switch (target.type) {
      case 'user':
        add(target, [target.id]);
        break;
      case 'schedule': {
        const schedule = await getSchedule(table, tenantId, target.id);
        const onCall = schedule ? onCallAt(schedule, atMs).user_id : null;
        add(target, onCall ? [onCall] : []);
        break;
      }
      case 'team':
        add(target, (await getTeam(table, tenantId, target.id))?.members ?? []);
        break;
      case 'channel':
        if (seen.has(`c:${target.id}`)) break;
        seen.add(`c:${target.id}`);
        addressees.push({ channel_id: target.id, target });
        break;
    }
  }
  return { addressees, nobody };
}

/**
 * The zone a person reads a page's times in: their own (the zone they chose in Settings, which
 * their reports use), else the zone of the schedule that paged them, else UTC.
 */
export async function personZone(
  table: Table,
  tenantId: string,
  userId: string,
  target?: { type: string; id: string },
): Promise<string> {
  const own = (await getUser(table, tenantId, userId))?.report_time_zone;
  if (own && isTimeZone(own)) return own;
  if (target?.type !== 'schedule') return 'UTC';
  const zone = (await getSchedule(table, tenantId, target.id))?.time_zone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}
