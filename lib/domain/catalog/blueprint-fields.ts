import * as z from 'zod';
import { HTTP_URL_PATTERN } from '../formats/url-patterns.ts';
import {
  FIELD_TYPES,
  type FieldType,
  type FieldValue,
  MAX_ARRAY_ITEMS,
  parseDefaultValue,
} from './field-values.ts';
import { isAllowedKey, RESERVED_NAME_MESSAGE, RESERVED_NAMES } from './reserved-names.ts';

/** Blueprint field definitions: their shape, their rules and their order. Pure: no I/O. */

export const MAX_FIELDS_PER_BLUEPRINT = 100;

/** Field names are JSON keys and appear in error paths (`fields.<name>`), so no dots or spaces. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const fieldName = z
  .string()
  .regex(FIELD_NAME, 'must start with a letter or _ and hold only letters, digits, _ and -');

/** One field definition as stored and returned (unknown keys rejected). */
export const fieldDefinitionSchema = z.strictObject({
  name: fieldName,
  field_type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
  default_value: z.string().max(4096).optional(),
  sort_order: z.number().int().min(-1_000_000).max(1_000_000).default(0),
});
export type FieldDefinition = z.output<typeof fieldDefinitionSchema>;

/**
 * The `default_value` each field type parses (parseDefaultValue), as patterns the document shows:
 * every match parses (bounded digits and exponents stay finite; an array holds at most
 * MAX_ARRAY_ITEMS scalars). checkFieldDefinition still parses the value: it is the rule.
 */
const JSON_SPACE = '[ \\t\\n\\r]*';
const NUMBER = '-?(?:0|[1-9][0-9]{0,14})(?:\\.[0-9]{1,15})?(?:[eE][+-]?[0-9]{1,2})?';
const JSON_STRING = '"(?:[^"\\\\\\x00-\\x1f]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*"';
const SCALAR = `(?:${JSON_STRING}|${NUMBER}|true|false)`;
const DEFAULT_PATTERNS: Record<FieldType, string | undefined> = {
  string: undefined,
  number: `^${NUMBER}$`,
  boolean: '^(?:true|false)$',
  url: HTTP_URL_PATTERN,
  array: `^${JSON_SPACE}\\[${JSON_SPACE}(?:${SCALAR}(?:${JSON_SPACE},${JSON_SPACE}${SCALAR}){0,${MAX_ARRAY_ITEMS - 1}})?${JSON_SPACE}\\]${JSON_SPACE}$`,
};

/** A new definition of one field type: its default_value documented as that type parses it. */
function newDefinitionOf<T extends FieldType>(type: T) {
  const pattern = DEFAULT_PATTERNS[type];
  return fieldDefinitionSchema.extend({
    name: fieldName.refine(isAllowedKey, RESERVED_NAME_MESSAGE).meta({ not: { enum: [...RESERVED_NAMES] } }),
    field_type: z.literal(type),
    default_value: fieldDefinitionSchema.shape.default_value.meta(pattern ? { pattern } : {}),
  });
}

/**
 * A new field definition as a request gives it, one shape per field_type: reserved names are
 * refused here, at the boundary, while definitions stored before the rule still read.
 */
export const newFieldDefinitionSchema = z.discriminatedUnion(
  'field_type',
  [
    newDefinitionOf('string'),
    newDefinitionOf('number'),
    newDefinitionOf('boolean'),
    newDefinitionOf('url'),
    newDefinitionOf('array'),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `Choose one of: ${FIELD_TYPES.slice(0, -1).join(', ')} or ${FIELD_TYPES.at(-1)}.`
        : undefined,
  },
);

export interface FieldIssue {
  path: string;
  message: string;
}

/** Issues of one definition on its own: a default_value that does not parse as its type. */
export function checkFieldDefinition(def: FieldDefinition, path = ''): FieldIssue[] {
  if (def.default_value === undefined) return [];
  const parsed = parseDefaultValue(def.field_type, def.default_value);
  const at = path ? `${path}.default_value` : 'default_value';
  return parsed.ok ? [] : [{ path: at, message: parsed.message }];
}

/** Issues of a list of definitions: each one's default, and names unique within the list. */
export function checkFieldDefinitions(defs: readonly FieldDefinition[], path = 'fields'): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  defs.forEach((def, i) => {
    if (seen.has(def.name))
      issues.push({ path: `${path}.${i}.name`, message: `Another field is already named ${def.name}.` });
    seen.add(def.name);
    issues.push(...checkFieldDefinition(def, `${path}.${i}`));
  });
  return issues;
}

/** Definitions in display order: sort_order, then name. */
export function sortFields<T extends Pick<FieldDefinition, 'name' | 'sort_order'>>(defs: readonly T[]): T[] {
  return [...defs].sort(
    (a, b) => a.sort_order - b.sort_order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** The parsed default of a definition, or undefined when it has none (or it no longer parses). */
export function defaultOf(def: FieldDefinition): FieldValue | undefined {
  if (def.default_value === undefined) return undefined;
  const parsed = parseDefaultValue(def.field_type, def.default_value);
  return parsed.ok ? parsed.value : undefined;
}
