import type { z } from 'zod';
import { type ErrorDetail, ValidationError } from '../platform/errors.ts';

/** Parses `value` with `schema`, turning zod issues into a VALIDATION_ERROR that names each field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where = 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: ErrorDetail[] = result.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const base = issue.path.map(String).join('.');
    const path = keys.length > 0 ? [base, keys.join(',')].filter(Boolean).join('.') : base || where;
    const message =
      issue.code === 'unrecognized_keys' ? `unknown field(s): ${keys.join(', ')}` : issue.message;
    return { path, message };
  });
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return throwValidation(`invalid ${where}: ${summary}`, details);
}

function throwValidation(message: string, details: ErrorDetail[]): never {
  throw new ValidationError(message, details);
}
