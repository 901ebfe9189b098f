import type { Schemas } from '../api/client';

/** Converting between an entity's typed field values and the text the generated form edits. */

export type FieldDef = Schemas['Blueprint']['fields'][number];
export type FieldValue = Schemas['Entity']['fields'][string];
/** The form's draft: text for every field ('' = not set; booleans are 'true' / 'false' / ''). */
export type Draft = Record<string, string>;

/** The text a stored value edits as: arrays one item per line. */
export function toText(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join('\n');
  return String(value);
}

/** The draft of an entity (or of a new one: every field empty, required booleans false). */
export function draftOf(defs: readonly FieldDef[], values: Schemas['Entity']['fields'] = {}): Draft {
  const draft: Draft = {};
  for (const def of defs) {
    const text = toText(values[def.name]);
    draft[def.name] = def.field_type === 'boolean' && def.required && text === '' ? 'false' : text;
  }
  return draft;
}

/**
 * The typed value of one draft entry, or undefined when it is not set. A number that does not
 * parse is sent as typed, so the API's VALIDATION_ERROR names the field.
 */
function fromText(def: FieldDef, text: string): FieldValue | undefined {
  if (def.field_type === 'array') {
    const items = text
      .split('\n')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return items.length > 0 ? items : undefined;
  }
  if (text.trim() === '') return undefined;
  if (def.field_type === 'boolean') return text === 'true';
  if (def.field_type === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text.trim();
}

/** The fields of a create body: only the entries that are set (defaults fill the rest). */
export function createFields(defs: readonly FieldDef[], draft: Draft): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const def of defs) {
    const value = fromText(def, draft[def.name] ?? '');
    if (value !== undefined) out[def.name] = value;
  }
  return out;
}

/** The fields of a merge patch: set entries as values, cleared ones that had a value as null. */
export function patchFields(
  defs: readonly FieldDef[],
  draft: Draft,
  before: Schemas['Entity']['fields'],
): Record<string, FieldValue | null> {
  const out: Record<string, FieldValue | null> = {};
  for (const def of defs) {
    const value = fromText(def, draft[def.name] ?? '');
    if (value !== undefined) out[def.name] = value;
    else if (before[def.name] !== undefined) out[def.name] = null;
  }
  return out;
}
