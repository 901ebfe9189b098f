import * as z from 'zod';

/**
 * HTTP assertions as stored (lib/domain/http-assertions.ts validates them at the API): read back
 * without checking again what the API checked, so no RE2 here; the functions that only read
 * checks (the generator, the stream) import this and not the validation.
 */

export const ASSERTION_SOURCES = ['status', 'body', 'json', 'header', 'latency_ms'] as const;
export const ASSERTION_OPS = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'contains',
  'not_contains',
  'matches',
  'exists',
] as const;

/** The value an assertion compares with. */
export const assertionValueSchema = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]);

/** Assertions as stored: read back without checking again what the API checked when they were written. */
export const storedAssertionSchema = z.object({
  source: z.enum(ASSERTION_SOURCES),
  path: z.string().optional(),
  op: z.enum(ASSERTION_OPS),
  value: assertionValueSchema.optional(),
});
