import type * as z from 'zod';
import { parseJsonPath } from './assertion-syntax.ts';
import type { storedAssertionSchema } from './stored-assertions.ts';

/** An assertion's fields (lib/domain/http-assertions.ts HttpAssertion has the same). */
type Assertion = z.output<typeof storedAssertionSchema>;

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
export const HEADER_NAME_MESSAGE = 'Enter a header name.';
export const JSON_PATH_MESSAGE = 'Enter a json path in dotted form, such as $.data.items[0].status.';
const NUMERIC_OPS: readonly Assertion['op'][] = ['lt', 'lte', 'gt', 'gte'];

/**
 * Why an assertion cannot run, as [field, message], or undefined when it is well formed. A
 * `matches` pattern is compiled by `compilePattern` (RE2 at the API: ../http-assertions.ts; a string
 * answer is why it is refused); without one, only its type is checked here (a multistep check's
 * shape, which loads no RE2: its probe answers a refused pattern in the result).
 */
export function assertionProblem(
  a: Assertion,
  compilePattern?: (pattern: string) => unknown,
): [string, string] | undefined {
  const pathed = a.source === 'json' || a.source === 'header';
  if (pathed && a.path === undefined) return ['path', `Enter a path for ${a.source} assertions.`];
  if (!pathed && a.path !== undefined)
    return ['path', 'Leave the path out: only json and header assertions take one.'];
  if (a.source === 'json' && !parseJsonPath(a.path ?? '')) {
    return ['path', JSON_PATH_MESSAGE];
  }
  if (a.source === 'header' && !HEADER_NAME.test(a.path ?? '')) return ['path', HEADER_NAME_MESSAGE];
  if (a.op === 'exists') {
    if (a.value !== undefined && typeof a.value !== 'boolean') {
      return ['value', 'Use true (the default) or false for exists.'];
    }
    return undefined;
  }
  if (a.value === undefined) return ['value', `Enter a value for ${a.op}.`];
  if (NUMERIC_OPS.includes(a.op) && typeof a.value !== 'number') {
    return ['value', `Enter a number: ${a.op} compares numbers.`];
  }
  if (a.op === 'matches') {
    if (typeof a.value !== 'string') return ['value', 'Enter a regular expression (a string) for matches.'];
    const compiled = compilePattern?.(a.value);
    if (typeof compiled === 'string') return ['value', compiled];
  }
  return undefined;
}
