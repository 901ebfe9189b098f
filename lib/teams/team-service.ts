import { listUsers } from '../auth/records.ts';
import type { BlueprintStore } from '../catalog/blueprints.ts';
import type { EntityStore } from '../catalog/entities.ts';
import { entityExistsOp } from '../catalog/entities.ts';
import {
  deleteRelationOps,
  newRelationOps,
  ownedByTeam,
  type RelationRecord,
  readRelationEnds,
} from '../catalog/relations.ts';
import { getSchedule } from '../oncall/schedule-items.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { deleteHeld, replaceHeld } from '../store/held-writes.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import {
  getTeam,
  listTeams,
  MAX_TEAMS_PER_TENANT,
  type TeamRecord,
  teamCreatedOp,
  teamDeletedOp,
  teamExistsOp,
  teamReplacedOp,
} from './team-items.ts';
import type { PublicTeam, TeamRelationView } from './team-responses.ts';
import type { TeamBody } from './team-schemas.ts';

/** Team relations deleted per transaction when a team goes (2 ops each, within 100). */
const RELATIONS_PER_DELETE = 40;

/** The tenant's escalation policies as teams read them (lib/escalation's, handed in by the app). */
export interface TeamPolicies {
  get(
    tenantId: string,
    id: string,
  ): Promise<{ name: string; steps: { targets: { type: string; id: string }[] }[] } | undefined>;
}

export interface TeamServiceDeps {
  table: Table;
  clock: Clock;
  blueprints: Pick<BlueprintStore, 'get'>;
  entities: Pick<EntityStore, 'getById'>;
  /** Without it, a team names no escalation policy (400 for one given). */
  policies?: TeamPolicies | undefined;
}

/**
 * Teams of a tenant (issue 55 item 5): admins write them (the router's `role`), everyone reads
 * them. Members must be users of the account, the schedule and the default-owned blueprints must
 * exist, and a blueprint has at most one default owner. A team owns an entity through an owned_by
 * relation ending at the team (written here, with the catalog's relation items).
 */
export function createTeamService(deps: TeamServiceDeps) {
  const { table, clock } = deps;

  const require = async (tenantId: string, id: string) => {
    const found = await getTeam(table, tenantId, id);
    if (!found) throw new NotFoundError('team');
    return found;
  };

  /** 400 naming the first field that names something this account does not have. */
  const validate = async (tenantId: string, body: TeamBody, self?: string) => {
    const issues: { path: string; message: string }[] = [];
    const members = new Set((await listUsers(table, tenantId)).map((u) => u.id));
    body.members.forEach((id, i) => {
      if (!members.has(id))
        issues.push({ path: `members.${i}`, message: 'No member of this account has this id.' });
    });
    if (body.schedule_id && !(await getSchedule(table, tenantId, body.schedule_id)))
      issues.push({ path: 'schedule_id', message: 'No schedule of this account has this id.' });
    if (body.escalation_policy_id && !(await deps.policies?.get(tenantId, body.escalation_policy_id)))
      issues.push({
        path: 'escalation_policy_id',
        message: 'No escalation policy of this account has this id.',
      });
    const others = (await listTeams(table, tenantId)).filter((t) => t.id !== self);
    for (const [i, slug] of body.default_owner_of.entries()) {
      if (!(await deps.blueprints.get(tenantId, slug)))
        issues.push({
          path: `default_owner_of.${i}`,
          message: 'No blueprint of this account has this slug.',
        });
      const owner = others.find((t) => t.default_owner_of.includes(slug));
      if (owner)
        issues.push({
          path: `default_owner_of.${i}`,
          message: `Team "${owner.name}" already owns this blueprint's entities by default.`,
        });
    }
    if (issues.length > 0) throw new ValidationError(`${issues[0]?.path}: ${issues[0]?.message}`, issues);
    return others;
  };

  const publicTeam = async (record: TeamRecord): Promise<PublicTeam> => {
    const [users, owned] = await Promise.all([
      listUsers(table, record.tenant_id),
      ownedByTeam(table, record.tenant_id, record.id),
    ]);
    const byId = new Map(users.map((u) => [u.id, u]));
    const ends = await readRelationEnds(table, record.tenant_id, [
      ...new Set(owned.map((r) => r.from_entity_id)),
    ]);
    return {
      id: record.id,
      name: record.name,
      members: record.members.map((id) => ({
        id,
        name: byId.get(id)?.name ?? null,
        email: byId.get(id)?.email ?? null,
      })),
      escalation_policy_id: record.escalation_policy_id,
      schedule_id: record.schedule_id,
      default_owner_of: record.default_owner_of,
      owns: owned.flatMap((rel) => {
        const end = ends.get(rel.from_entity_id);
        return end
          ? [
              {
                relation_id: rel.id,
                entity: {
                  id: rel.from_entity_id,
                  name: end.name,
                  slug: end.slug,
                  blueprint_slug: end.blueprint_slug,
                },
              },
            ]
          : [];
      }),
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
  };

  return {
    async list(tenantId: string): Promise<PublicTeam[]> {
      return Promise.all((await listTeams(table, tenantId)).map(publicTeam));
    },

    async get(tenantId: string, id: string): Promise<PublicTeam> {
      return publicTeam(await require(tenantId, id));
    },

    async create(tenantId: string, body: TeamBody): Promise<PublicTeam> {
      const others = await validate(tenantId, body);
      if (others.length >= MAX_TEAMS_PER_TENANT)
        throw new LimitExceededError(`a tenant keeps at most ${MAX_TEAMS_PER_TENANT} teams`);
      const now = clock.now();
      const record: TeamRecord = {
        id: newId('team', now),
        tenant_id: tenantId,
        ...body,
        created_at: isoTime(now),
        updated_at: isoTime(now),
        version: 1,
      };
      await table.transact([teamCreatedOp(record)]);
      return publicTeam(record);
    },

    async replace(tenantId: string, id: string, body: TeamBody): Promise<PublicTeam> {
      const current = await require(tenantId, id);
      await validate(tenantId, body, id);
      const next: TeamRecord = {
        ...current,
        ...body,
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      };
      await replaceHeld(table, [teamReplacedOp(next, current.version)], {
        name: 'team',
        exists: async () => (await getTeam(table, tenantId, id)) !== undefined,
      });
      return publicTeam(next);
    },

    /** Deletes the team and the owned_by relations ending at it (in pages, the last with the team). */
    async remove(tenantId: string, id: string): Promise<void> {
      await require(tenantId, id);
      let owned = await ownedByTeam(table, tenantId, id);
      while (owned.length > RELATIONS_PER_DELETE) {
        const page = owned.slice(0, RELATIONS_PER_DELETE);
        await table.transact(page.flatMap((rel) => deleteRelationOps(tenantId, rel)));
        owned = owned.slice(RELATIONS_PER_DELETE);
      }
      await deleteHeld(
        table,
        [teamDeletedOp(tenantId, id), ...owned.flatMap((rel) => deleteRelationOps(tenantId, rel))],
        'team',
      );
    },

    /** Makes the team an owner of the entity: an owned_by relation from the entity to the team. */
    async own(tenantId: string, id: string, entityId: string): Promise<TeamRelationView> {
      const [team, entity] = await Promise.all([
        require(tenantId, id),
        deps.entities.getById(tenantId, entityId),
      ]);
      if (!entity) throw new NotFoundError('entity');
      const now = clock.now();
      const rel: RelationRecord = {
        id: newId('rel', now),
        from_entity_id: entityId,
        to_entity_id: id,
        to_type: 'team',
        relation_type: 'owned_by',
        created_at: isoTime(now),
      };
      const ops = [
        ...newRelationOps(tenantId, rel),
        entityExistsOp(tenantId, entityId),
        teamExistsOp(tenantId, id),
      ];
      try {
        await table.transact(ops);
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        if (err.failed.includes(ops.length - 2)) throw new NotFoundError('entity');
        if (err.failed.includes(ops.length - 1)) throw new NotFoundError('team');
        throw new ConflictError('the team already owns this entity');
      }
      return {
        id: rel.id,
        relation_type: 'owned_by',
        from_entity_id: entityId,
        from_entity: {
          id: entity.id,
          name: entity.name,
          slug: entity.slug,
          blueprint_slug: entity.blueprint_slug,
        },
        to_team_id: id,
        to_team: { id, name: team.name },
        created_at: rel.created_at,
      };
    },

    /** Ends the team's ownership of the entity (404 when it does not own it). */
    async disown(tenantId: string, id: string, entityId: string): Promise<void> {
      await require(tenantId, id);
      const rel = (await ownedByTeam(table, tenantId, id)).find((r) => r.from_entity_id === entityId);
      if (!rel) throw new NotFoundError('owned entity');
      await deleteHeld(table, deleteRelationOps(tenantId, rel, { kind: 'itemExists' }), 'owned entity');
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
