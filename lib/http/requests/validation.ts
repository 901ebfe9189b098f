import type { z } from 'zod';
import { clipText, type ErrorDetail, ValidationError } from '../../platform/errors.ts';
import { issueSentence, unknownKeysSentence } from './issue-messages.ts';

/** How many unknown key names one detail's path lists. */
const MAX_KEYS_NAMED = 5;
/** How many details the one-line message summarises. */
const MAX_SUMMARISED = 3;

function toDetail(issue: z.core.$ZodIssue, where: string): ErrorDetail {
  const base = issue.path.map(String).join('.');
  if (issue.code !== 'unrecognized_keys') return { path: base || where, message: issue.message };
  const named = issue.keys
    .slice(0, MAX_KEYS_NAMED)
    .map((key) => clipText(key, 64))
    .join(',');
  return { path: [base, named].filter(Boolean).join('.') || where, message: unknownKeysSentence(issue.keys) };
}

/** One detail per path (the first issue found for it): one problem reads as one message. */
function onePerPath(issues: readonly z.core.$ZodIssue[], where: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const detail = toDetail(issue, where);
    if (seen.has(detail.path)) continue;
    seen.add(detail.path);
    details.push(detail);
  }
  return details;
}

/** The one-line message of a list of details: the first few, and how many more. */
function summarise(details: readonly ErrorDetail[]): string {
  const shown = details.slice(0, MAX_SUMMARISED).map((d) => `${d.path}: ${d.message.replace(/\.$/, '')}`);
  const rest = details.length - shown.length;
  return `${shown.join('; ')}${rest > 0 ? ` (and ${rest} more)` : ''}`;
}

/**
 * Parses `value` with `schema`, turning zod issues into a VALIDATION_ERROR that names each field
 * with a sentence (issue-messages.ts); a missing request body says so instead of naming a type.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where = 'body'): z.output<S> {
  const result = schema.safeParse(value, { error: issueSentence });
  if (result.success) return result.data;
  if (value === undefined && where === 'body') {
    throw new ValidationError('request body is required', [
      { path: 'body', message: 'A request body is required.' },
    ]);
  }
  const details = onePerPath(result.error.issues, where);
  throw new ValidationError(`invalid ${where}: ${summarise(details)}`, details);
}
