import { type Clock, isoTime } from '../platform/clock.ts';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import type { CreateSkillBody, ToolManifest, UpdateSkillBody } from './manifest.ts';
import type { SkillRecord, ToolDefinition } from './skill-items.ts';
import type { SkillStore, SkillWriteFailure } from './skill-store.ts';

/** Attempts when another write changed the skill between the read and the conditional write. */
const WRITE_ATTEMPTS = 5;

export interface SkillServiceDeps {
  skills: SkillStore;
  clock: Clock;
  /** Whether an action exists in the tenant (a runbook tool's action_id). */
  actionExists(tenantId: string, actionId: string): Promise<boolean>;
}

/** The stored tool definition: absent optional fields stay absent. */
function toolDefinition(tool: ToolManifest): ToolDefinition {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.action_id ? { action_id: tool.action_id } : {}),
  };
}

/** The 409 of a tool name another enabled skill of the tenant holds. */
function toolConflict(failure: Extract<SkillWriteFailure, { kind: 'tool' }>): ConflictError {
  const holder = failure.heldBy ? `skill ${failure.heldBy}` : 'another enabled skill';
  return new ConflictError(`tool name ${failure.tool} is already provided by ${holder}`);
}

/** A new skill record of `body` (created and updated now, revision 1). */
export function newSkillRecord(tenantId: string, body: CreateSkillBody, nowMs: number): SkillRecord {
  const now = isoTime(nowMs);
  return {
    id: newId('skl', nowMs),
    tenant_id: tenantId,
    slug: body.slug,
    name: body.name,
    description: body.description,
    version: body.version,
    tools: body.tools.map(toolDefinition),
    enabled: body.enabled,
    created_at: now,
    updated_at: now,
    revision: 1,
  };
}

/** Skill registration (DECISIONS.md "MCP"): manifests, enabling and disabling, tool-name uniqueness. */
export function createSkillService(deps: SkillServiceDeps) {
  const { skills, clock } = deps;

  async function requireSkill(tenantId: string, slug: string): Promise<SkillRecord> {
    const skill = await skills.get(tenantId, slug);
    if (!skill) throw new NotFoundError('skill');
    return skill;
  }

  /** 400 naming the first runbook tool whose action is not one of the tenant's. */
  async function checkActions(tenantId: string, tools: ToolManifest[]): Promise<void> {
    for (const [index, tool] of tools.entries()) {
      if (tool.action_id && !(await deps.actionExists(tenantId, tool.action_id)))
        throw ValidationError.field(`tools.${index}.action_id`, `action ${tool.action_id} not found`);
    }
  }

  /** Registers a skill: 409 when the slug exists or a tool name is held by another enabled skill. */
  async function create(tenantId: string, body: CreateSkillBody): Promise<SkillRecord> {
    await checkActions(tenantId, body.tools);
    const skill = newSkillRecord(tenantId, body, clock.now());
    const failure = await skills.create(skill);
    if (failure?.kind === 'tool') throw toolConflict(failure);
    if (failure) throw new ConflictError(`a skill with slug ${body.slug} already exists`);
    return skill;
  }

  /** Changes the given fields; the tool-name claims follow the tools and the enabled flag. */
  async function update(tenantId: string, slug: string, patch: UpdateSkillBody): Promise<SkillRecord> {
    if (patch.tools) await checkActions(tenantId, patch.tools);
    for (let attempt = 1; ; attempt++) {
      const current = await requireSkill(tenantId, slug);
      const next: SkillRecord = {
        ...current,
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        version: patch.version ?? current.version,
        tools: patch.tools ? patch.tools.map(toolDefinition) : current.tools,
        enabled: patch.enabled ?? current.enabled,
        updated_at: isoTime(clock.now()),
        revision: current.revision + 1,
      };
      const failure = await skills.update(next, current);
      if (!failure) return next;
      if (failure.kind === 'tool') throw toolConflict(failure);
      if (attempt >= WRITE_ATTEMPTS) throw new ConflictError('the skill changed meanwhile; try again');
    }
  }

  return {
    create,

    /** One skill of the tenant (404 otherwise). */
    get: requireSkill,

    /** Every skill of the tenant, by slug. */
    list: (tenantId: string) => skills.list(tenantId),

    update,

    /**
     * Turns a built-in toolset on in one step: registers its manifest under its slug, or gives the
     * existing skill of that slug this manifest's fields and enables it (what a console button and
     * POST /v1/skills/builtin/{toolset} do). A second call changes nothing but updated_at.
     */
    async enableToolset(tenantId: string, manifest: CreateSkillBody) {
      const { slug, ...fields } = manifest;
      if (!(await skills.get(tenantId, slug))) {
        try {
          return { created: true, skill: await create(tenantId, manifest) };
        } catch (error) {
          // Registered meanwhile: enable that one.
          if (!(error instanceof ConflictError) || (await skills.get(tenantId, slug)) === undefined)
            throw error;
        }
      }
      return { created: false, skill: await update(tenantId, slug, { ...fields, enabled: true }) };
    },

    /** Deletes a skill and frees its tool names (404 when it does not exist). */
    async remove(tenantId: string, slug: string): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        const current = await requireSkill(tenantId, slug);
        if (await skills.remove(current)) return;
        if (attempt >= WRITE_ATTEMPTS) throw new ConflictError('the skill changed meanwhile; try again');
      }
    },
  };
}

export type SkillService = ReturnType<typeof createSkillService>;
