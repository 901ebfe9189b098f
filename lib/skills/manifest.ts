import * as z from 'zod';
import { slugSchema } from '../domain/formats.ts';
import { idSchema } from '../http/route-schemas.ts';
import { createInputSchemaCompiler, DRAFT_07, DRAFT_2020_12 } from './input-schema.ts';

/**
 * The skill manifest as requests carry it (SPEC.md "Skill (MCP tool manifest)"; DECISIONS.md
 * "MCP"): tool names follow MCP's rule, each inputSchema is a JSON Schema object that ajv compiles
 * in strict mode with RE2 patterns within the validation budget (lib/skills/input-schema.ts), and
 * every size is bounded so a skill and its tool-name claims fit one item and one transaction.
 */

export const SKILL_LIMITS = {
  /**
   * Tools per skill: an update that swaps every tool name writes the skill, releases each old
   * name and claims each new one in one transaction of at most 100 operations (1 + 49 + 49).
   */
  tools: 49,
  /** Bytes of one tool's inputSchema as JSON. */
  inputSchemaBytes: 16 * 1024,
  /** Bytes of all tools as JSON, so the skill item stays well inside the 400 KB item limit. */
  toolsBytes: 256 * 1024,
  descriptionLength: 4000,
} as const;

/** MCP's tool-name rule (specification 2025-11-25, the SDK's toolNameValidation): 1–128 of A–Z a–z 0–9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/** A semantic version (semver.org's regular expression: no leading zeros, optional pre-release and build). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][a-zA-Z0-9-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][a-zA-Z0-9-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

const annotationsSchema = z
  .strictObject({
    title: z.string().max(200).optional(),
    readOnlyHint: z.boolean().optional().meta({ description: 'true: the tool changes nothing' }),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .meta({
    description:
      'MCP tool annotations. A built-in tool shows its own whatever these say, and a runbook tool is never read-only; otherwise read-only keys see only tools with readOnlyHint true',
  });

const inputSchemaField = z.record(z.string(), z.unknown()).meta({
  description: 'A JSON Schema object (type "object"); 2020-12 unless $schema names draft-07',
  // What inputSchemaProblem checks before compiling, as the document can say it.
  required: ['type'],
  properties: {
    type: { const: 'object' },
    $schema: { type: 'string', pattern: `${DRAFT_2020_12.source}|${DRAFT_07.source}` },
  },
});

export const toolManifestSchema = z
  .strictObject({
    name: z
      .string()
      .regex(TOOL_NAME, 'Use 1 to 128 characters: letters A–Z and a–z, digits 0–9, _, - and full stops.')
      .meta({ description: 'Unique across the tenant’s enabled skills' }),
    description: z.string().min(1).max(SKILL_LIMITS.descriptionLength),
    inputSchema: inputSchemaField,
    annotations: annotationsSchema.optional(),
    action_id: idSchema('act')
      .optional()
      .meta({ description: 'A runbook tool: calling it runs this action of the tenant' }),
  })
  .meta({ id: 'SkillTool' });
export type ToolManifest = z.output<typeof toolManifestSchema>;

/** Why an inputSchema is not acceptable, or undefined when it compiles within the budget. */
function inputSchemaProblem(
  schema: Record<string, unknown>,
  compile: ReturnType<typeof createInputSchemaCompiler>,
) {
  if (utf8Bytes(schema) > SKILL_LIMITS.inputSchemaBytes)
    return `Use at most ${SKILL_LIMITS.inputSchemaBytes} bytes as JSON.`;
  if (schema.type !== 'object') return 'Give the schema type "object".';
  try {
    compile(schema);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `This is not a valid JSON Schema: ${reason.replace(/\.$/, '')}.`;
  }
}

/** The tools of a manifest: bounded, names unique within it, each inputSchema compiled by ajv. */
export const toolsSchema = z
  .array(toolManifestSchema)
  .max(SKILL_LIMITS.tools)
  .superRefine((tools, ctx) => {
    const compile = createInputSchemaCompiler();
    const seen = new Set<string>();
    tools.forEach((tool, index) => {
      if (seen.has(tool.name))
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `Another tool of this skill is named ${tool.name}: use a different name.`,
        });
      seen.add(tool.name);
      const problem = inputSchemaProblem(tool.inputSchema, compile);
      if (problem) ctx.addIssue({ code: 'custom', path: [index, 'inputSchema'], message: problem });
    });
    if (utf8Bytes(tools) > SKILL_LIMITS.toolsBytes)
      ctx.addIssue({
        code: 'custom',
        message: `Use at most ${SKILL_LIMITS.toolsBytes} bytes as JSON for all the tools together.`,
      });
  })
  .meta({ description: `At most ${SKILL_LIMITS.tools} tools` });

const fields = {
  name: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(200),
  description: z.string().max(SKILL_LIMITS.descriptionLength),
  version: z.string().max(64).regex(SEMVER, 'Enter a semantic version, such as 1.2.3.'),
  tools: toolsSchema,
  enabled: z
    .boolean()
    .meta({ description: 'Only enabled skills offer tools; disabling frees their tool names' }),
};

/** POST /v1/skills: the manifest, plus `enabled` (default true). */
export const createSkillBody = z.strictObject({
  slug: slugSchema(),
  name: fields.name,
  description: fields.description.default(''),
  version: fields.version,
  tools: fields.tools,
  enabled: fields.enabled.default(true),
});
export type CreateSkillBody = z.output<typeof createSkillBody>;

/** PUT /v1/skills/{slug}: the fields given change (tools as a whole); the slug does not. */
export const updateSkillBody = z.strictObject({
  name: fields.name.optional(),
  description: fields.description.optional(),
  version: fields.version.optional(),
  tools: fields.tools.optional(),
  enabled: fields.enabled.optional(),
});
export type UpdateSkillBody = z.output<typeof updateSkillBody>;
