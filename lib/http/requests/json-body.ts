import { ValidationError } from '../../platform/errors.ts';

/** How deeply a JSON body may nest objects and arrays; deeper bodies answer 400 before any handler runs. */
export const MAX_JSON_DEPTH = 32;

/**
 * Keys no body may hold anywhere: parsers that copy objects by assignment (zod, spreads into `{}`)
 * would silently drop them or change an object's prototype.
 */
const FORBIDDEN_KEY = '__proto__';

/**
 * True when the nesting of objects and arrays in valid JSON `text` stays within `max`. One pass
 * over the characters, skipping string contents, so it costs no recursion and no second parse.
 */
export function withinDepth(text: string, max: number): boolean {
  // Every level needs an opening bracket: short texts cannot be too deep.
  if (text.length <= max) return true;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth += 1;
      if (depth > max) return false;
    } else if (c === 125 || c === 93) depth -= 1;
  }
  return true;
}

/** The path of the first `__proto__` key in a parsed value (depth already bounded), or undefined. */
function forbiddenKeyPath(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, FORBIDDEN_KEY)) {
    return path ? `${path}.${FORBIDDEN_KEY}` : FORBIDDEN_KEY;
  }
  for (const [key, child] of Object.entries(value)) {
    const found = forbiddenKeyPath(child, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses a request body as JSON (undefined when empty): 400 VALIDATION_ERROR when it is not JSON,
 * nests deeper than MAX_JSON_DEPTH, or holds a `__proto__` key.
 */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ValidationError(
      'request body is not valid JSON',
      [{ path: 'body', message: 'invalid JSON' }],
      cause,
    );
  }
  if (!withinDepth(text, MAX_JSON_DEPTH)) {
    throw ValidationError.field('body', `nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // The walk runs only when the key may be there, written plainly or with \u escapes.
  if (text.includes(FORBIDDEN_KEY) || text.includes('\\u')) {
    const path = forbiddenKeyPath(value, '');
    if (path) throw ValidationError.field(path, `'${FORBIDDEN_KEY}' is a reserved name`);
  }
  return value;
}
