import { transactIf } from '../store/items.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import {
  getSkill,
  listSkills,
  SKILL_OP,
  type SkillRecord,
  type SkillWrite,
  skillCreatedOps,
  skillDeletedOps,
  skillUpdatedOps,
  type ToolDefinition,
  toolNameClaim,
} from './skill-items.ts';

/** Why a skill write did not happen: the slug is taken, a tool name is held, or the skill changed or went. */
export type SkillWriteFailure =
  | { kind: 'slug' }
  | { kind: 'tool'; tool: string; heldBy: string | undefined }
  | { kind: 'stale' };

/** A tool of an enabled skill with its skill's slug: what the registry offers MCP (lib/mcp). */
export interface EnabledTool extends ToolDefinition {
  skill_slug: string;
}

/**
 * The tenant's skills (skill-items.ts): one item each in the tenant's partition, plus one claim
 * item per tool name of an enabled skill, written in the same transaction, so a tool name belongs
 * to at most one enabled skill of a tenant even under concurrent writes.
 */
export function createSkillStore(table: Table) {
  /** Commits a skill write; a cancelled transaction says why (`onSkill` when the skill's own write failed). */
  async function commit(
    write: SkillWrite,
    tenantId: string,
    onSkill: SkillWriteFailure,
  ): Promise<SkillWriteFailure | undefined> {
    try {
      await table.transact(write.ops);
      return undefined;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (error.failed.includes(SKILL_OP)) return onSkill;
      const tool = error.failed.map((index) => write.claims.get(index)).find((name) => name !== undefined);
      if (tool === undefined) return { kind: 'stale' };
      const holder = await toolNameClaim(table, tenantId, tool);
      return { kind: 'tool', tool, heldBy: holder?.skill_slug };
    }
  }

  return {
    /** Stores a new skill with a claim per tool name when enabled; a failure says which. */
    create: (skill: SkillRecord) => commit(skillCreatedOps(skill), skill.tenant_id, { kind: 'slug' }),

    /** One skill of the tenant, or undefined. */
    get: (tenantId: string, slug: string) => getSkill(table, tenantId, slug),

    /** Every skill of the tenant, by slug. */
    list: (tenantId: string) => listSkills(table, tenantId),

    /**
     * Replaces `previous` with `next` while the stored revision is still previous.revision: the
     * names `previous` claimed and `next` does not are released, the new ones claimed, all in one
     * transaction. 'stale' when the skill changed or went meanwhile.
     */
    update: (next: SkillRecord, previous: SkillRecord) =>
      commit(skillUpdatedOps(next, previous), next.tenant_id, { kind: 'stale' }),

    /** Deletes `skill` and releases its names while its revision is unchanged; false when it changed or went. */
    remove: (skill: SkillRecord): Promise<boolean> => transactIf(table, skillDeletedOps(skill)),

    /** The tools of the tenant's enabled skills with their skill's slug, by skill slug then manifest order. */
    async listEnabledTools(tenantId: string): Promise<EnabledTool[]> {
      const skills = await listSkills(table, tenantId);
      return skills
        .filter((skill) => skill.enabled)
        .flatMap((skill) => skill.tools.map((tool) => ({ ...tool, skill_slug: skill.slug })));
    },
  };
}

export type SkillStore = ReturnType<typeof createSkillStore>;
