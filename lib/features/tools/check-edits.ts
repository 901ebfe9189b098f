import { checkNameOf } from '../../check-types/check-name.ts';
import { definitionFromUpdate, updateCheckBody } from '../../checks/check-input.ts';
import { publicCheck } from '../../checks/records.ts';
import { issueSentence } from '../../http/requests.ts';
import { ValidationError } from '../../platform/errors.ts';
import { type BuiltinTool, requiredString, writes } from '../../platform/mcp-tool.ts';
import { asToolResult, entityWords, toolResult } from '../../platform/tool-answers.ts';
import { type CheckToolDeps, namedCheck } from './deps.ts';

const checkId = { type: 'string', maxLength: 64, description: 'The check (chk_…)' };

const apply = {
  type: 'boolean',
  default: false,
  description: 'false (default): answer what would change and change nothing; true: make the change',
};

/** A check's entity as tool texts name it: `Name (blueprint/slug)`. */
export const entityOf = (c: { entity_name: string; blueprint_slug: string; entity_slug: string }) =>
  entityWords({ name: c.entity_name, blueprint_slug: c.blueprint_slug, slug: c.entity_slug });

/**
 * update_check and delete_check (PUT and DELETE /v1/checks/{id}'s service): dry run first. Without
 * `apply: true` the tool answers what it would change (the fields that differ, before and after, as
 * GET /v1/checks/{id} shows them: header values redacted for read-only keys) or what it would
 * delete, and writes nothing; with it, the change is made as the route makes it.
 */

/** A field that would change: its value now and after. */
interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The changes argument parsed as PUT /v1/checks/{id}'s body (zod at this edge, as at the route's). */
function patchOf(args: Record<string, unknown>) {
  const parsed = updateCheckBody.safeParse(args.changes, { error: issueSentence });
  if (!parsed.success)
    throw new ValidationError(
      'invalid changes',
      parsed.error.issues.map((i) => ({ path: ['changes', ...i.path].join('.'), message: i.message })),
    );
  if (Object.keys(parsed.data).length === 0)
    throw ValidationError.field('changes', 'Name at least one field.');
  return parsed.data;
}

/** The fields whose shown value differs between two views of a check. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  fields.delete('updated_at');
  return [...fields]
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

/** update_check: the diff of a partial update; applied only with apply: true. */
export const updateCheck: BuiltinTool<CheckToolDeps> = {
  name: 'update_check',
  offer: {
    toolset: 'check-ops',
    order: 20,
    version: '1.1.0',
    description:
      'Change some fields of a check (as PUT /v1/checks/{id} takes them: name, target_url, config, interval_seconds, timeout_ms, failure_threshold, enabled, assertions, …). Dry run unless apply is true: first answers each field that would change, before and after, and changes nothing.',
    inputSchema: {
      type: 'object',
      properties: {
        check_id: checkId,
        changes: {
          type: 'object',
          minProperties: 1,
          maxProperties: 40,
          description: 'The fields to change and their new values (the PUT /v1/checks/{id} body)',
        },
        apply,
      },
      required: ['check_id', 'changes'],
      additionalProperties: false,
    },
  },
  references: namedCheck,
  annotations: writes('Update check', { destructive: true, idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const patch = patchOf(args);
      const current = await deps.checkService.read(caller.tenantId, checkId);
      const about = `check "${checkNameOf(current)}" of ${entityOf(current)}`;
      // The route's rules (per-type config, schedule, header values kept) before anything is written.
      const next = { ...current, ...definitionFromUpdate(current, patch) };
      const changes = diff(publicCheck(current, caller), publicCheck(next, caller));
      if (args.apply !== true) {
        const what = changes.length ? changes.map((c) => c.field).join(', ') : 'nothing';
        return toolResult(
          `Dry run: updating ${about} would change ${what}. Nothing was changed; call again with apply: true to apply.`,
          { dry_run: true, changes },
        );
      }
      const updated = await deps.checkService.update(caller.tenantId, checkId, patch);
      const check = publicCheck(await deps.checkService.named(caller.tenantId, updated), caller);
      return toolResult(
        `Updated ${about}: ${changes.length ? changes.map((c) => c.field).join(', ') : 'no field changed'}.`,
        { dry_run: false, changes, check },
      );
    }),
};

/** delete_check: what a delete removes; deleted only with apply: true. */
export const deleteCheck: BuiltinTool<CheckToolDeps> = {
  name: 'delete_check',
  offer: {
    toolset: 'check-ops',
    order: 30,
    version: '1.1.0',
    description:
      'Delete a check with its results, transitions and rollups. Dry run unless apply is true: first answers what would be deleted and deletes nothing.',
    inputSchema: {
      type: 'object',
      properties: { check_id: checkId, apply },
      required: ['check_id'],
      additionalProperties: false,
    },
  },
  references: namedCheck,
  annotations: writes('Delete check', { destructive: true, idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const check = publicCheck(await deps.checkService.read(caller.tenantId, checkId), caller);
      const about = `${check.check_type} check "${check.name}" of ${entityOf({ ...check, entity_name: check.entity_name ?? check.entity_slug })}`;
      const deletes = {
        check,
        also: 'its results, transitions and rollups (purged in the background)',
      };
      if (args.apply !== true) {
        return toolResult(
          `Dry run: deleting would remove ${about} with ${deletes.also}. Nothing was deleted; call again with apply: true to delete.`,
          { dry_run: true, deletes },
        );
      }
      await deps.checkService.remove(caller.tenantId, checkId);
      return toolResult(`Deleted ${about}; ${deletes.also} follow.`, { dry_run: false, deleted: deletes });
    }),
};
