import * as z from 'zod';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import { pick } from '../platform/pick.ts';
import { toolManifestSchema } from './manifest.ts';
import type { SkillRecord } from './skill-items.ts';

/** The skill as responses show it: the manifest fields plus id, enabled and the times (no revision). */
export const publicSkillSchema = z
  .strictObject({
    id: idSchema('skl'),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.string().meta({ description: 'A semantic version' }),
    tools: z.array(toolManifestSchema),
    enabled: z.boolean().meta({ description: 'Only enabled skills offer tools over MCP' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Skill' });

/** The public view of a skill record. */
export function publicSkill(skill: SkillRecord): z.output<typeof publicSkillSchema> {
  return pick(skill, [
    'id',
    'slug',
    'name',
    'description',
    'version',
    'tools',
    'enabled',
    'created_at',
    'updated_at',
  ]);
}
