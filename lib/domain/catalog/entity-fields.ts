import { defaultOf, type FieldDefinition, type FieldIssue, sortFields } from './blueprint-fields.ts';
import { checkFieldValue, type FieldValue } from './field-values.ts';
import { mergePatch } from './merge-patch.ts';
import { isAllowedKey, RESERVED_NAME_MESSAGE } from './reserved-names.ts';

/** An entity's field values, validated against its blueprint. Pure: no I/O. */

export type FieldValues = Record<string, FieldValue>;

export type FieldsResult = { ok: true; fields: FieldValues } | { ok: false; issues: FieldIssue[] };

/** The most field names one entity request may carry (a blueprint holds at most as many fields). */
const MAX_FIELDS_PER_ENTITY = 100;
/** The largest an entity's fields may be, serialised as JSON, in bytes. */
const MAX_FIELDS_BYTES = 64 * 1024;

/** Issues of the patch's names alone: too many, reserved, unknown, or a required one removed. */
function nameIssues(
  byName: ReadonlyMap<string, FieldDefinition>,
  creating: boolean,
  patch: Record<string, unknown>,
): FieldIssue[] {
  const names = Object.keys(patch);
  if (names.length > MAX_FIELDS_PER_ENTITY) {
    return [{ path: 'fields', message: `Use at most ${MAX_FIELDS_PER_ENTITY} fields.` }];
  }
  const issues: FieldIssue[] = [];
  for (const name of names) {
    const def = byName.get(name);
    if (!isAllowedKey(name)) issues.push({ path: `fields.${name}`, message: RESERVED_NAME_MESSAGE });
    else if (!def) issues.push({ path: `fields.${name}`, message: 'This blueprint has no such field.' });
    else if (patch[name] === null && !creating && def.required) {
      issues.push({ path: `fields.${name}`, message: 'This field is required and cannot be removed.' });
    }
  }
  return issues;
}

/**
 * Applies a merge patch of field values to `current` (undefined on create, where null simply means
 * "not given") and validates the result against the blueprint: unknown and reserved names are
 * rejected, values are type- and size-checked, removing a required field is rejected, missing
 * values take their default, required fields without a value or default are reported, and the
 * whole stays within MAX_FIELDS_BYTES. Every issue names `fields.<name>` (or `fields`).
 */
export function applyFieldPatch(
  defs: readonly FieldDefinition[],
  current: FieldValues | undefined,
  patch: Record<string, unknown>,
): FieldsResult {
  const byName = new Map(defs.map((def) => [def.name, def]));
  const issues = nameIssues(byName, current === undefined, patch);
  // Too many names is answered alone: nothing else about such a patch is worth reporting.
  if (issues.length === 1 && issues[0]?.path === 'fields') return { ok: false, issues };
  const merged = mergePatch(current ?? {}, patch);
  const values = typeof merged === 'object' && merged !== null ? Object.entries(merged) : [];
  const given = new Map(values.filter(([name]) => byName.has(name)));
  const entries: [string, FieldValue][] = [];
  for (const def of sortFields(defs)) {
    const path = `fields.${def.name}`;
    if (!given.has(def.name)) {
      const fallback = defaultOf(def);
      if (fallback !== undefined) entries.push([def.name, fallback]);
      else if (def.required && !issues.some((issue) => issue.path === path)) {
        issues.push({ path, message: 'This field is required.' });
      }
      continue;
    }
    const checked = checkFieldValue(def.field_type, given.get(def.name));
    if (checked.ok) entries.push([def.name, checked.value]);
    else issues.push({ path, message: checked.message });
  }
  if (issues.length > 0) return { ok: false, issues };
  // Object.fromEntries defines own members, so no key can reach a prototype.
  const fields: FieldValues = Object.fromEntries(entries);
  if (Buffer.byteLength(JSON.stringify(fields)) > MAX_FIELDS_BYTES) {
    return {
      ok: false,
      issues: [{ path: 'fields', message: `Keep the fields under ${MAX_FIELDS_BYTES / 1024} KB in all.` }],
    };
  }
  return { ok: true, fields };
}

/** Stored values in blueprint order, with defaults filled for fields the entity lacks (fields added later). */
export function withDefaults(defs: readonly FieldDefinition[], stored: FieldValues): FieldValues {
  const entries: [string, FieldValue][] = [];
  for (const def of sortFields(defs)) {
    const value = Object.hasOwn(stored, def.name) ? stored[def.name] : defaultOf(def);
    if (value !== undefined) entries.push([def.name, value]);
  }
  return Object.fromEntries(entries);
}
