import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';

/**
 * Keys of the skill items; see docs/data-model.md. A skill lives in its tenant's partition
 * (listed by `SKILL#`); each tool name of an enabled skill holds a claim item, written in the same
 * transaction as the skill (itemNotExists), so names stay unique across a tenant's enabled skills
 * even under concurrent writes (409 CONFLICT).
 */

export const SKILL_PREFIX = 'SKILL#';

export const skillKeys = {
  skill: (tenantId: string, slug: string) => ({ pk: tenantPk(tenantId), sk: `${SKILL_PREFIX}${slug}` }),
  toolName: (tenantId: string, toolName: string) => ({ pk: tenantPk(tenantId), sk: `TOOLNAME#${toolName}` }),
};

/** The skill item types: each item's `entity` and the version of its stored shape. */
export const skillTypes = {
  skill: itemType('skill'),
  toolName: itemType('tool_name'),
};
