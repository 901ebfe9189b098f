import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Condition, Table, WriteOp } from '../store/table.ts';

/**
 * The owner of the skill items (`skill`, `tool_name`; docs/data-model.md, "Skills"). A skill lives
 * in its tenant's partition (listed by `SKILL#`) holding the whole manifest (SPEC.md "Skill (MCP
 * tool manifest)"; DECISIONS.md "MCP"): the manifest fields plus `id`, `enabled`, `created_at`,
 * `updated_at` and `revision`. Each tool name of an enabled skill holds a claim item, written in
 * the same transaction as the skill (itemNotExists), so names stay unique across a tenant's
 * enabled skills even under concurrent writes. Manifest validation at the API edge (tool names,
 * JSON Schema checked by ajv) is manifest.ts's; this is the stored shape.
 */

const SKILL_PREFIX = 'SKILL#';

const toolAnnotationsSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

const toolDefinitionSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** A JSON Schema object (type "object", optional required, properties). */
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: toolAnnotationsSchema.optional(),
  /** A runbook tool: calling it runs this action (manual trigger, arguments as template vars). */
  action_id: z.string().optional(),
});
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

const skillSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  /** A semantic version (1.2.3). */
  version: z.string(),
  tools: z.array(toolDefinitionSchema),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write (optimistic updates). */
  revision: z.number().int(),
});
export type SkillRecord = z.infer<typeof skillSchema>;

const skill = defineItem({
  type: itemType('skill'),
  schema: skillSchema,
  key: (k: { tenant_id: string; slug: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${SKILL_PREFIX}${k.slug}`,
  }),
  docKey: { tenant_id: '<tnt>', slug: '<slug>' },
});

/** A tool name's claim: which skill of the tenant offers it. */
const toolName = defineItem({
  type: itemType('tool_name'),
  schema: z.object({ tenant_id: z.string(), tool_name: z.string(), skill_slug: z.string().optional() }),
  key: (k: { tenant_id: string; tool_name: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `TOOLNAME#${k.tool_name}`,
  }),
  docKey: { tenant_id: '<tnt>', tool_name: '<name>' },
});

/** A skill's writes, and the tool name each claim among them takes, by op index. */
export interface SkillWrite {
  ops: WriteOp[];
  claims: ReadonlyMap<number, string>;
}

/** The index of the skill's own write in every SkillWrite. */
export const SKILL_OP = 0;

/** The tool names a skill holds claims for: all its tools' names while enabled, none while disabled. */
function claimedNames(record: SkillRecord): string[] {
  return record.enabled ? record.tools.map((tool) => tool.name) : [];
}

function claimOp(record: SkillRecord, name: string): WriteOp {
  return toolName.put(
    { tenant_id: record.tenant_id, tool_name: name, skill_slug: record.slug },
    { kind: 'itemNotExists' },
  );
}

/** Deletes a claim unless another skill holds it (a missing claim is nothing to release). */
function releaseOp(record: SkillRecord, name: string): WriteOp {
  const ours: Condition = {
    kind: 'or',
    conditions: [
      { kind: 'attrNotExists', attr: 'skill_slug' },
      { kind: 'compare', attr: 'skill_slug', op: '=', value: record.slug },
    ],
  };
  return toolName.delete({ tenant_id: record.tenant_id, tool_name: name }, ours);
}

/** The skill's own write, then the releases, then a claim per name in `claimed`. */
function skillWrite(own: WriteOp, released: WriteOp[], record: SkillRecord, claimed: string[]): SkillWrite {
  const first = 1 + released.length;
  return {
    ops: [own, ...released, ...claimed.map((name) => claimOp(record, name))],
    claims: new Map(claimed.map((name, i) => [first + i, name])),
  };
}

const sameRevision = (record: SkillRecord): Condition => ({
  kind: 'compare',
  attr: 'revision',
  op: '=',
  value: record.revision,
});

/** A new skill (its slug unused) with a claim per tool name when enabled. */
export function skillCreatedOps(record: SkillRecord): SkillWrite {
  return skillWrite(skill.put(record, { kind: 'itemNotExists' }), [], record, claimedNames(record));
}

/**
 * `previous` replaced with `next` while the stored revision is still previous.revision: the names
 * `previous` claimed and `next` does not are released, the new ones claimed.
 */
export function skillUpdatedOps(next: SkillRecord, previous: SkillRecord): SkillWrite {
  const before = new Set(claimedNames(previous));
  const after = new Set(claimedNames(next));
  return skillWrite(
    skill.put(next, sameRevision(previous)),
    [...before].filter((name) => !after.has(name)).map((name) => releaseOp(next, name)),
    next,
    [...after].filter((name) => !before.has(name)),
  );
}

/** The delete of `record` with its names released, while its revision is unchanged. */
export function skillDeletedOps(record: SkillRecord): WriteOp[] {
  return [
    skill.delete(record, sameRevision(record)),
    ...claimedNames(record).map((name) => releaseOp(record, name)),
  ];
}

/** One skill of the tenant, or undefined. */
export function getSkill(table: Table, tenantId: string, slug: string): Promise<SkillRecord | undefined> {
  return skill.get(table, { tenant_id: tenantId, slug }, { consistent: true });
}

/** Every skill of the tenant, by slug. */
export async function listSkills(table: Table, tenantId: string): Promise<SkillRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: SKILL_PREFIX },
      consistent: true,
      cursor,
    }),
  );
  return items.map((item) => skill.parse(item));
}

/** Whether a tool name of the tenant is claimed, and by which skill (when the claim says). */
export async function toolNameClaim(
  table: Table,
  tenantId: string,
  name: string,
): Promise<{ skill_slug?: string | undefined } | undefined> {
  return toolName.get(table, { tenant_id: tenantId, tool_name: name }, { consistent: true });
}
