import type { McpTool } from '../mcp/ports.ts';
import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import { ConditionFailedError, type Item, type NewItem, type Table, type WriteOp } from '../store/table.ts';
import { type SkillRecord, skillSchema } from './records.ts';
import { SKILL_PREFIX, skillKeys, skillTypes } from './skill-keys.ts';

/** Why a skill write did not happen: the slug is taken, a tool name is held, or the skill changed or went. */
export type SkillWriteFailure =
  | { kind: 'slug' }
  | { kind: 'tool'; tool: string; heldBy: string | undefined }
  | { kind: 'stale' };

/** The tool names a skill holds claims for: all its tools' names while enabled, none while disabled. */
function claimedNames(skill: SkillRecord): string[] {
  return skill.enabled ? skill.tools.map((tool) => tool.name) : [];
}

function skillItem(skill: SkillRecord): NewItem {
  return { ...skillKeys.skill(skill.tenant_id, skill.slug), ...stamp(skillTypes.skill), ...skill };
}

function claimOp(skill: SkillRecord, toolName: string): WriteOp {
  return {
    type: 'put',
    item: {
      ...skillKeys.toolName(skill.tenant_id, toolName),
      ...stamp(skillTypes.toolName),
      tenant_id: skill.tenant_id,
      tool_name: toolName,
      skill_slug: skill.slug,
    },
    condition: { kind: 'itemNotExists' },
  };
}

/** Deletes a claim unless another skill holds it (a missing claim is nothing to release). */
function releaseOp(tenantId: string, slug: string, toolName: string): WriteOp {
  return {
    type: 'delete',
    key: skillKeys.toolName(tenantId, toolName),
    condition: {
      kind: 'or',
      conditions: [
        { kind: 'attrNotExists', attr: 'skill_slug' },
        { kind: 'compare', attr: 'skill_slug', op: '=', value: slug },
      ],
    },
  };
}

/**
 * The tenant's skills: one item each in the tenant's partition, plus one claim item per tool name
 * of an enabled skill, written in the same transaction, so a tool name belongs to at most one
 * enabled skill of a tenant even under concurrent writes.
 */
export function createSkillStore(table: Table) {
  const parse = (item: Item) => parseItem(skillSchema, item);

  /** The failure a cancelled transaction stands for; ops[0] is the skill's own write. */
  async function failureOf(
    error: ConditionFailedError,
    ops: WriteOp[],
    tenantId: string,
    onSkill: SkillWriteFailure,
  ): Promise<SkillWriteFailure> {
    if (error.failed.includes(0)) return onSkill;
    const claim = error.failed
      .map((index) => ops[index])
      .find((op) => op?.type === 'put' && op.item.entity === skillTypes.toolName.entity);
    if (claim?.type !== 'put') return { kind: 'stale' };
    const tool = String(claim.item.tool_name);
    const holder = await table.get(skillKeys.toolName(tenantId, tool), { consistent: true });
    return { kind: 'tool', tool, heldBy: holder ? String(holder.skill_slug) : undefined };
  }

  async function list(tenantId: string): Promise<SkillRecord[]> {
    const items = await queryAll((cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: SKILL_PREFIX },
        consistent: true,
        cursor,
      }),
    );
    return items.map(parse);
  }

  return {
    /** Stores a new skill with a claim per tool name when enabled; a failure says which. */
    async create(skill: SkillRecord): Promise<SkillWriteFailure | undefined> {
      const ops: WriteOp[] = [
        { type: 'put', item: skillItem(skill), condition: { kind: 'itemNotExists' } },
        ...claimedNames(skill).map((name) => claimOp(skill, name)),
      ];
      try {
        await table.transact(ops);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        return failureOf(error, ops, skill.tenant_id, { kind: 'slug' });
      }
    },

    /** One skill of the tenant, or undefined. */
    async get(tenantId: string, slug: string): Promise<SkillRecord | undefined> {
      const item = await table.get(skillKeys.skill(tenantId, slug), { consistent: true });
      return item ? parse(item) : undefined;
    },

    /** Every skill of the tenant, by slug. */
    list,

    /**
     * Replaces `previous` with `next` while the stored revision is still previous.revision: the
     * names `previous` claimed and `next` does not are released, the new ones claimed, all in one
     * transaction. 'stale' when the skill changed or went meanwhile.
     */
    async update(next: SkillRecord, previous: SkillRecord): Promise<SkillWriteFailure | undefined> {
      const before = new Set(claimedNames(previous));
      const after = new Set(claimedNames(next));
      const ops: WriteOp[] = [
        {
          type: 'put',
          item: skillItem(next),
          condition: { kind: 'compare', attr: 'revision', op: '=', value: previous.revision },
        },
        ...[...before]
          .filter((name) => !after.has(name))
          .map((name) => releaseOp(next.tenant_id, next.slug, name)),
        ...[...after].filter((name) => !before.has(name)).map((name) => claimOp(next, name)),
      ];
      try {
        await table.transact(ops);
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        return failureOf(error, ops, next.tenant_id, { kind: 'stale' });
      }
    },

    /** Deletes `skill` and releases its names while its revision is unchanged; false when it changed or went. */
    async remove(skill: SkillRecord): Promise<boolean> {
      try {
        await table.transact([
          {
            type: 'delete',
            key: skillKeys.skill(skill.tenant_id, skill.slug),
            condition: { kind: 'compare', attr: 'revision', op: '=', value: skill.revision },
          },
          ...claimedNames(skill).map((name) => releaseOp(skill.tenant_id, skill.slug, name)),
        ]);
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    /** The tools of the tenant's enabled skills with their skill's slug, by skill slug then manifest order. */
    async listEnabledTools(tenantId: string): Promise<McpTool[]> {
      const skills = await list(tenantId);
      return skills
        .filter((skill) => skill.enabled)
        .flatMap((skill) => skill.tools.map((tool) => ({ ...tool, skill_slug: skill.slug })));
    },
  };
}

export type SkillStore = ReturnType<typeof createSkillStore>;
