import type { EntityStore } from '../catalog/entities.ts';
import { teamOwnersOf } from '../catalog/relations.ts';
import type { ScheduleService } from '../oncall/schedule-service.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { Table } from '../store/table.ts';
import { getTeam, listTeams, type TeamRecord } from './team-items.ts';
import type { OnCallRow, WhoIsOnCall } from './team-responses.ts';
import type { WhoQuery } from './team-schemas.ts';
import type { TeamPolicies } from './team-service.ts';

export interface WhoDeps {
  table: Table;
  clock: Clock;
  entities: Pick<EntityStore, 'getById'>;
  schedules: Pick<ScheduleService, 'get' | 'onCall'>;
  policies?: TeamPolicies | undefined;
}

type Ownership = OnCallRow['path']['ownership'];

/**
 * Who is on call (issue 55 item 5), by entity, team or schedule (or for every team), at `at` (default now): an entity
 * resolves to its owning teams (owned_by relations ending at a team, else the team that owns its
 * blueprint by default), a team to its schedule, a schedule to the person on call then. Every row
 * carries the path it took. A team with an escalation policy answers from the first schedule its
 * policy's first step pages (DECISIONS.md "On-call (wave 5)"); one without (or whose first step
 * pages no schedule) from the team's own schedule (docs/on-call.md).
 */
export function createWhoService(deps: WhoDeps) {
  const { table, clock, schedules } = deps;

  const fromSchedule = async (
    tenantId: string,
    scheduleId: string,
    at: number,
    path: Omit<OnCallRow['path'], 'schedule'>,
  ): Promise<OnCallRow> => {
    const schedule = await schedules.get(tenantId, scheduleId).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (!schedule) return { ...nobody({ ...path, schedule: null }), note: 'Its schedule no longer exists.' };
    const now = await schedules.onCall(tenantId, scheduleId, at);
    return {
      path: { ...path, schedule: { id: schedule.id, name: schedule.name } },
      user: now.user,
      layer: now.layer,
      override_id: now.override_id,
      until: now.until,
      note: now.user ? null : `Nobody is on call in schedule "${schedule.name}" then.`,
    };
  };

  /** The first schedule the team's policy's first step pages, if it has one. */
  const policySchedule = async (tenantId: string, team: TeamRecord) => {
    if (!team.escalation_policy_id) return undefined;
    const policy = await deps.policies?.get(tenantId, team.escalation_policy_id);
    return policy?.steps[0]?.targets.find((t) => t.type === 'schedule')?.id;
  };

  const fromTeam = async (tenantId: string, team: TeamRecord, at: number, ownership: Ownership) => {
    const path = { ownership, team: { id: team.id, name: team.name } };
    const scheduleId = (await policySchedule(tenantId, team)) ?? team.schedule_id;
    if (!scheduleId)
      return {
        ...nobody({ ...path, schedule: null }),
        note: `Team "${team.name}" has no on-call schedule.`,
      };
    return fromSchedule(tenantId, scheduleId, at, path);
  };

  return {
    async whoIsOnCall(tenantId: string, query: WhoQuery): Promise<WhoIsOnCall> {
      const at = query.at ? Date.parse(query.at) : clock.now();
      const answer = (entity: WhoIsOnCall['entity'], on_call: OnCallRow[], note: string | null = null) => ({
        at: isoTime(at),
        entity,
        on_call,
        note,
      });
      if (query.schedule_id) {
        await schedules.get(tenantId, query.schedule_id); // 404 for a schedule the tenant does not have
        return answer(null, [
          await fromSchedule(tenantId, query.schedule_id, at, { ownership: null, team: null }),
        ]);
      }
      if (query.team_id) {
        const team = await getTeam(table, tenantId, query.team_id);
        if (!team) throw new NotFoundError('team');
        return answer(null, [await fromTeam(tenantId, team, at, null)]);
      }
      if (query.entity_id === undefined) {
        const teams = await listTeams(table, tenantId);
        const rows = await Promise.all(teams.map((team) => fromTeam(tenantId, team, at, null)));
        return answer(null, rows, teams.length === 0 ? 'This account has no teams yet.' : null);
      }
      const found = await deps.entities.getById(tenantId, query.entity_id);
      if (!found) throw new NotFoundError('entity');
      const entity = {
        id: found.id,
        name: found.name,
        slug: found.slug,
        blueprint_slug: found.blueprint_slug,
      };
      const owners = await owningTeams(table, tenantId, found);
      if (owners.length === 0)
        return answer(
          entity,
          [],
          `"${found.name}" has no owning team: add it to a team (POST /v1/teams/{id}/entities), or make a team the default owner of blueprint ${found.blueprint_slug}.`,
        );
      return answer(
        entity,
        await Promise.all(owners.map(({ team, ownership }) => fromTeam(tenantId, team, at, ownership))),
      );
    },
  };
}

export type WhoService = ReturnType<typeof createWhoService>;

/** The teams owning an entity: by owned_by relations, else its blueprint's default owner. */
export async function owningTeams(
  table: Table,
  tenantId: string,
  entity: { id: string; blueprint_slug: string },
): Promise<{ team: TeamRecord; ownership: 'owned_by' | 'blueprint_default' }[]> {
  const relations = await teamOwnersOf(table, tenantId, entity.id);
  const related = (await Promise.all(relations.map((r) => getTeam(table, tenantId, r.to_entity_id)))).filter(
    (t): t is TeamRecord => t !== undefined,
  );
  if (related.length > 0) return related.map((team) => ({ team, ownership: 'owned_by' as const }));
  const byDefault = (await listTeams(table, tenantId)).find((t) =>
    t.default_owner_of.includes(entity.blueprint_slug),
  );
  return byDefault ? [{ team: byDefault, ownership: 'blueprint_default' as const }] : [];
}

function nobody(path: OnCallRow['path']): OnCallRow {
  return { path, user: null, layer: null, override_id: null, until: null, note: null };
}
