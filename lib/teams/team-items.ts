import * as z from 'zod';
import { tenantItems } from '../store/child-items.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantItemKeys } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `team` (DECISIONS.md "On-call (wave 5)"): a tenant's team, its members (user ids), its
 * escalation policy (null until policies exist), its on-call schedule (the team's rota until
 * policies land) and the blueprints whose entities it owns by default, in the tenant partition
 * under `TEAM#<team_id>` (purged with the tenant). Which entities it owns explicitly are
 * owned_by relations ending at the team (lib/catalog/relations/relation-items.ts).
 */

/** Teams one tenant may keep; one more is 403 LIMIT_EXCEEDED. */
export const MAX_TEAMS_PER_TENANT = 100;
/** Members of one team, and blueprints one team owns by default. */
export const TEAM_LIMITS = { members: 100, blueprints: 50 } as const;

const teamSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  members: z.array(z.string()),
  escalation_policy_id: z.string().nullable(),
  schedule_id: z.string().nullable(),
  /** Blueprint slugs: their entities without an owned_by relation to a team are this team's. */
  default_owner_of: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type TeamRecord = z.infer<typeof teamSchema>;

const PREFIX = 'TEAM#';

const team = defineItem({
  type: itemType('team'),
  schema: teamSchema,
  ...tenantItemKeys(PREFIX, '<team_id>'),
});

const teamsStore = tenantItems(team, {
  key: (tenant_id: string, id: string) => ({ tenant_id, id }),
  prefix: PREFIX,
  maxPerTenant: MAX_TEAMS_PER_TENANT,
});

/** One team of the tenant (consistent), or undefined. */
export const getTeam = (table: Table, tenantId: string, id: string): Promise<TeamRecord | undefined> =>
  teamsStore.get(table, tenantId, id);

/** Every team of the tenant, oldest first (ids are time-ordered); bounded by the per-tenant limit. */
export const listTeams = (table: Table, tenantId: string): Promise<TeamRecord[]> =>
  teamsStore.list(table, tenantId);

/** The put of a new team (it must not exist yet). */
export const teamCreatedOp = teamsStore.createdOp;

/** The put of a changed team over the version `readVersion` it was read at. */
export const teamReplacedOp = teamsStore.replacedOp;

/** The delete of a team (`itemExists`: one already gone fails the condition). */
export const teamDeletedOp = teamsStore.deletedOp;

/** Holds while the team exists (an owned_by relation to it is written with this check). */
export function teamExistsOp(tenantId: string, id: string): WriteOp {
  return team.conditionCheck({ tenant_id: tenantId, id }, { kind: 'itemExists' });
}
