import { defaultOf, type FieldDefinition, type FieldIssue, sortFields } from './blueprint-fields.ts';
import { checkFieldValue, type FieldValue } from './field-values.ts';
import { mergePatch } from './merge-patch.ts';

/** An entity's field values, validated against its blueprint. Pure: no I/O. */

export type FieldValues = Record<string, FieldValue>;

export type FieldsResult = { ok: true; fields: FieldValues } | { ok: false; issues: FieldIssue[] };

/**
 * Applies a merge patch of field values to `current` (undefined on create, where null simply means
 * "not given") and validates the result against the blueprint: unknown names are rejected, values
 * are type-checked, removing a required field is rejected, missing values take their default, and
 * required fields without a value or default are reported. Every issue names `fields.<name>`.
 */
export function applyFieldPatch(
  defs: readonly FieldDefinition[],
  current: FieldValues | undefined,
  patch: Record<string, unknown>,
): FieldsResult {
  const byName = new Map(defs.map((def) => [def.name, def]));
  const issues: FieldIssue[] = [];
  for (const [name, value] of Object.entries(patch)) {
    const def = byName.get(name);
    if (!def) issues.push({ path: `fields.${name}`, message: 'is not a field of this blueprint' });
    else if (value === null && current !== undefined && def.required) {
      issues.push({ path: `fields.${name}`, message: 'is required and cannot be removed' });
    }
  }
  const merged = mergePatch(current ?? {}, patch);
  const values = typeof merged === 'object' && merged !== null ? Object.entries(merged) : [];
  const given = new Map(values.filter(([name]) => byName.has(name)));
  const fields: FieldValues = {};
  for (const def of sortFields(defs)) {
    const path = `fields.${def.name}`;
    if (!given.has(def.name)) {
      const fallback = defaultOf(def);
      if (fallback !== undefined) fields[def.name] = fallback;
      else if (def.required && !issues.some((issue) => issue.path === path)) {
        issues.push({ path, message: 'is required' });
      }
      continue;
    }
    const checked = checkFieldValue(def.field_type, given.get(def.name));
    if (checked.ok) fields[def.name] = checked.value;
    else issues.push({ path, message: `${checked.message} (field_type ${def.field_type})` });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, fields };
}

/** Stored values in blueprint order, with defaults filled for fields the entity lacks (fields added later). */
export function withDefaults(defs: readonly FieldDefinition[], stored: FieldValues): FieldValues {
  const fields: FieldValues = {};
  for (const def of sortFields(defs)) {
    const value = stored[def.name] ?? defaultOf(def);
    if (value !== undefined) fields[def.name] = value;
  }
  return fields;
}
