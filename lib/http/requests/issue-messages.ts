import type { z } from 'zod';
import { clipText } from '../../platform/errors.ts';

/**
 * Zod's issues said as sentences a person reads once, at the field they are about ("Enter 60 or
 * more."), in place of zod's own texts ("Too small: expected number to be >=60"). A message a
 * schema sets itself (the slug rule, a refinement's reason) is kept: zod asks this map only for
 * issues that carry none.
 */

/** How many names one message lists before counting the rest. */
const MAX_NAMED = 8;

type Issue = z.core.$ZodRawIssue;

/** Names as a list a person reads: "a, b and c"; past `MAX_NAMED`, "a, b … and 3 more". */
export function listInWords(names: readonly unknown[], joiner = 'and'): string {
  const shown = names.slice(0, MAX_NAMED).map((name) => clipText(String(name), 64));
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length < 2) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} ${joiner} ${shown.at(-1)}`;
}

const count = (n: number | bigint, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A missing value, or one of the wrong kind. */
function wrongType(issue: Extract<Issue, { code: 'invalid_type' }>): string {
  if (issue.input === undefined || issue.input === null) return 'This field is required.';
  switch (issue.expected) {
    case 'int':
      return 'Enter a whole number.';
    case 'number':
    case 'bigint':
      return 'Enter a number.';
    case 'string':
      return 'Enter text.';
    case 'boolean':
      return 'Use true or false.';
    case 'array':
      return 'Use a list.';
    case 'object':
    case 'record':
    case 'map':
      return 'Use an object of named values.';
    case 'date':
      return 'Enter a date.';
    default:
      return 'This value is not of the expected kind.';
  }
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>): string {
  const min = issue.minimum;
  switch (issue.origin) {
    case 'string':
      return min === 1 ? 'This field is required.' : `Use at least ${count(min, 'character')}.`;
    case 'number':
    case 'int':
    case 'bigint':
      return issue.inclusive === false ? `Enter more than ${min}.` : `Enter ${min} or more.`;
    case 'array':
    case 'set':
      return min === 1 ? 'Add at least one.' : `Add at least ${min}.`;
    case 'date':
      return `Use a date on or after ${new Date(Number(min)).toISOString()}.`;
    default:
      return 'This value is too small.';
  }
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>): string {
  const max = issue.maximum;
  switch (issue.origin) {
    case 'string':
      return `Use at most ${count(max, 'character')}.`;
    case 'number':
    case 'int':
    case 'bigint':
      return issue.inclusive === false ? `Enter less than ${max}.` : `Enter ${max} or less.`;
    case 'array':
    case 'set':
      return `Use at most ${count(max, 'item')}.`;
    case 'date':
      return `Use a date on or before ${new Date(Number(max)).toISOString()}.`;
    default:
      return 'This value is too large.';
  }
}

const FORMATS: Record<string, string> = {
  email: 'Enter an email address, such as name@example.com.',
  url: 'Enter a full URL, such as https://example.com.',
  datetime: 'Enter a date and time, such as 2026-01-31T09:00:00Z.',
  date: 'Enter a date, such as 2026-01-31.',
  time: 'Enter a time, such as 09:00:00.',
  duration: 'Enter a duration, such as PT5M.',
  ipv4: 'Enter an IPv4 address, such as 192.0.2.1.',
  ipv6: 'Enter an IPv6 address, such as 2001:db8::1.',
  cidrv4: 'Enter an IPv4 range, such as 192.0.2.0/24.',
  cidrv6: 'Enter an IPv6 range, such as 2001:db8::/32.',
};

function wrongFormat(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  const known = FORMATS[issue.format];
  if (known) return known;
  if (issue.format === 'starts_with' && 'prefix' in issue) return `Start with "${issue.prefix}".`;
  if (issue.format === 'ends_with' && 'suffix' in issue) return `End with "${issue.suffix}".`;
  if (issue.format === 'includes' && 'includes' in issue) return `Include "${issue.includes}".`;
  if (['uuid', 'guid', 'ulid', 'cuid', 'cuid2', 'nanoid', 'xid', 'ksuid'].includes(issue.format)) {
    return 'Enter a valid ID.';
  }
  return 'This value is not in the expected format.';
}

/** A value outside a fixed set: the choices, listed. */
function notAChoice(values: readonly unknown[]): string {
  const shown = values.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))));
  return shown.length === 1 ? `Use ${shown[0]}.` : `Choose one of: ${listInWords(shown, 'or')}.`;
}

function noFittingForm(issue: Extract<Issue, { code: 'invalid_union' }>): string {
  if ('options' in issue && Array.isArray(issue.options)) return notAChoice(issue.options);
  return 'This value matches none of the accepted forms.';
}

/** Field names a strict object does not know, listed (bounded: a request may carry thousands). */
export function unknownKeysSentence(keys: readonly string[]): string {
  return keys.length === 1 ? `Unknown field: ${listInWords(keys)}.` : `Unknown fields: ${listInWords(keys)}.`;
}

/** The sentence for one zod issue; pass as a parse's `error` map (`schema.safeParse(v, { error })`). */
export function issueSentence(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return wrongType(issue);
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return wrongFormat(issue);
    case 'not_multiple_of':
      return `Enter a multiple of ${issue.divisor}.`;
    case 'unrecognized_keys':
      return unknownKeysSentence(issue.keys);
    case 'invalid_value':
      return notAChoice(issue.values);
    case 'invalid_union':
      return noFittingForm(issue);
    case 'invalid_key':
      return 'This name is not allowed here.';
    case 'invalid_element':
      return 'This entry is not valid.';
    default:
      return 'This value is not valid.';
  }
}
