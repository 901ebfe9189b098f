import * as z from 'zod';

/**
 * Blueprint field types and the values entities may hold (DECISIONS.md "Catalog"). Pure: no I/O.
 * A `default_value` is always a string, parsed by the field's type.
 */

export const FIELD_TYPES = ['string', 'number', 'boolean', 'url', 'array'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

type ScalarValue = string | number | boolean;
export type FieldValue = ScalarValue | ScalarValue[];

const scalarSchema = z.union([z.string(), z.number(), z.boolean()]);

/** Any value an entity field may hold once validated (used to parse stored entities). */
export const fieldValueSchema = z.union([scalarSchema, z.array(scalarSchema)]);

/** True for an absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

function isScalar(value: unknown): value is ScalarValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

export type ValueCheck = { ok: true; value: FieldValue } | { ok: false; message: string };

/** The longest string (or url) value, and the longest string in an array, in characters. */
const MAX_STRING_VALUE = 4096;
/** The most items an array value holds. */
export const MAX_ARRAY_ITEMS = 100;

const TOO_LONG = `Use at most ${MAX_STRING_VALUE} characters.`;

/** The size rules every value meets whatever its type; undefined when it meets them. */
function sizeProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > MAX_STRING_VALUE ? TOO_LONG : undefined;
  if (!Array.isArray(value)) return undefined;
  if (value.length > MAX_ARRAY_ITEMS) return `Use at most ${MAX_ARRAY_ITEMS} items.`;
  return value.some((item) => typeof item === 'string' && item.length > MAX_STRING_VALUE)
    ? `Keep each item to at most ${MAX_STRING_VALUE} characters.`
    : undefined;
}

/** Checks a JSON value against a field type and the size limits; the message says what was expected. */
export function checkFieldValue(type: FieldType, value: unknown): ValueCheck {
  const tooBig = sizeProblem(value);
  if (tooBig) return { ok: false, message: tooBig };
  switch (type) {
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, message: 'Enter text.' };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, message: 'Enter a number.' };
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: 'Use true or false.' };
    case 'url':
      return typeof value === 'string' && isHttpUrl(value)
        ? { ok: true, value }
        : { ok: false, message: 'Enter a full http or https URL, such as https://example.com.' };
    case 'array':
      return Array.isArray(value) && value.every(isScalar)
        ? { ok: true, value: [...value] }
        : { ok: false, message: 'Use a list of text, numbers or true/false values.' };
  }
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Parses a `default_value` string by type: "true"/"false", "42", an http(s) URL, a JSON array of scalars. */
export function parseDefaultValue(type: FieldType, raw: string): ValueCheck {
  switch (type) {
    case 'string':
      return { ok: true, value: raw };
    case 'number': {
      const n = Number(raw);
      return NUMBER_TEXT.test(raw) && Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, message: 'Enter a number, such as 42.' };
    }
    case 'boolean':
      if (raw === 'true') return { ok: true, value: true };
      if (raw === 'false') return { ok: true, value: false };
      return { ok: false, message: 'Use true or false.' };
    case 'url':
      return isHttpUrl(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: 'Enter a full http or https URL, such as https://example.com.' };
    case 'array': {
      const parsed = checkFieldValue('array', parseJson(raw));
      return parsed.ok
        ? parsed
        : { ok: false, message: 'Use a JSON list of text, numbers or true/false values, such as ["a", 1].' };
    }
  }
}
