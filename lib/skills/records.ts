import { z } from 'zod';

/**
 * Stored shapes of skills (SPEC.md "Skill (MCP tool manifest)"; DECISIONS.md "MCP"): the manifest
 * fields plus `id`, `enabled`, `created_at`, `updated_at`. Manifest validation at the API edge
 * (tool names, JSON Schema checked by ajv) lives in the skills feature; this is the stored shape.
 */

export const toolAnnotationsSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

export const toolDefinitionSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** A JSON Schema object (type "object", optional required, properties). */
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: toolAnnotationsSchema.optional(),
  /** A runbook tool: calling it runs this action (manual trigger, arguments as template vars). */
  action_id: z.string().optional(),
});
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

export const skillSchema = z.object({
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

/** The skill slug under which the built-in catalog tools are registered (SPEC.md). */
export const CATALOG_OPS = 'catalog-ops';
