import * as z from 'zod';
import { type Api, defineKind, expectOk, type NameIndex, postNew, seg } from '../config-doc/kind.ts';
import { ConflictError } from '../platform/errors.ts';
import { createSkillBody, SKILL_LIMITS, toolManifestSchema, toolsSchema } from './manifest.ts';
import type { publicSkillSchema } from './responses.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    skills: true;
  }
}

type PublicSkill = z.output<typeof publicSkillSchema>;
type PublicTool = PublicSkill['tools'][number];

/** A tool in the document: the manifest's tool with a runbook tool's `action_id` replaced by `action`. */
const toolDoc = toolManifestSchema.omit({ action_id: true }).extend({
  action: z
    .string()
    .trim()
    .min(1)
    .optional()
    .meta({ description: 'A runbook tool: calling it runs the action of this name' }),
});
type ToolDoc = z.output<typeof toolDoc>;

/**
 * A skill in the document: POST /v1/skills's body with its tools' actions named. The tools go
 * through the API's own rules (their number, unique names, inputSchemas that compile) at parse,
 * so a plan refuses what an apply would.
 */
const skillDoc = createSkillBody.omit({ tools: true }).extend({
  tools: z
    .array(toolDoc)
    .superRefine((tools, ctx) => {
      const checked = toolsSchema.safeParse(tools.map(({ action: _action, ...tool }) => tool));
      for (const issue of checked.error?.issues ?? [])
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    })
    .meta({ description: `At most ${SKILL_LIMITS.tools} tools`, maxItems: SKILL_LIMITS.tools }),
});
type SkillDoc = z.output<typeof skillDoc>;

/** The id of the action a runbook tool names; the engine has checked every reference exists. */
function actionId(names: NameIndex, name: string): string {
  const id = names.id('actions', name);
  if (id === undefined) throw new Error(`a tool names action ${name}, which the index does not hold`);
  return id;
}

/** The body POST takes (PUT takes it without the slug): every field, tools as a whole. */
const body = ({ tools, ...fields }: SkillDoc, names: NameIndex) => ({
  ...fields,
  tools: tools.map(({ action, ...tool }) => ({
    ...tool,
    ...(action === undefined ? {} : { action_id: actionId(names, action) }),
  })),
});

/** A tool as the API reads it, in document form: absent optional fields stay absent, as parsing leaves them. */
function toolToDoc(skill: PublicSkill, { action_id, ...tool }: PublicTool, names: NameIndex): ToolDoc {
  if (action_id === undefined) return tool;
  const action = names.identity('actions', action_id);
  // Deleting an action leaves the tools that run it in place (calling one fails); they have no document form.
  if (action === undefined)
    throw new ConflictError(
      `tool ${tool.name} of skill ${skill.slug} runs action ${action_id}, which no longer exists: point it at an action or remove the tool`,
    );
  return { ...tool, action };
}

const toDoc = (skill: PublicSkill, names: NameIndex): SkillDoc => ({
  slug: skill.slug,
  name: skill.name,
  description: skill.description,
  version: skill.version,
  tools: skill.tools.map((tool) => toolToDoc(skill, tool, names)),
  enabled: skill.enabled,
});

/** Skills (/v1/skills), named by their slug; their writes need the admin role, as apply does. */
export const skillsKind = defineKind<SkillDoc>({
  key: 'skills',
  after: ['actions'],
  noun: 'skill',
  schema: skillDoc,
  identity: (doc) => doc.slug,
  references: (doc) =>
    doc.tools.flatMap((tool) =>
      tool.action === undefined ? [] : [{ key: 'actions', identity: tool.action }],
    ),
  async read(api: Api, names) {
    const skills = await expectOk<PublicSkill[]>(api, { method: 'GET', path: '/v1/skills' });
    return skills.map((skill) => ({ id: skill.slug, doc: toDoc(skill, names) }));
  },
  async create(api, doc, names) {
    return (await postNew<PublicSkill>(api, '/v1/skills', body(doc, names))).slug;
  },
  async update(api, current, doc, names) {
    const { slug: _slug, ...fields } = body(doc, names);
    await expectOk(api, { method: 'PUT', path: `/v1/skills/${seg(current.id)}`, body: fields });
  },
  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/skills/${seg(current.id)}` });
  },
});
