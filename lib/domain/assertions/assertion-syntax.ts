import type { RE2JS } from 're2js';

/**
 * The syntax an HTTP assertion's path and pattern may use: checked at the API
 * (./http-assertions.ts) and read again by the evaluator (lib/probes/assertions.ts), which imports
 * this without the API's validation.
 */

export const MAX_PATTERN_LENGTH = 512;
/** RE2 program instructions a pattern may compile to (as for tool input schemas). */
const MAX_PATTERN_INSTRUCTIONS = 1000;
export const MAX_PATH_LENGTH = 256;

/** One step of a json path: an object key or an array index. */
export type PathSegment = string | number;

const SEGMENT = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d{1,9})\])/;

/**
 * A json path in the dotted form `$.a.b[0]` as its segments, or undefined when it is not one.
 * Only the dotted form (names and indexes), at most 256 characters: filters, wildcards and
 * recursive descent would make a check's cost depend on the body, and one value per assertion is
 * what the ops compare; a small walker does it (lib/probes/assertions.ts).
 */
export function parseJsonPath(path: string): PathSegment[] | undefined {
  if (!path.startsWith('$') || path.length > MAX_PATH_LENGTH) return undefined;
  const segments: PathSegment[] = [];
  let rest = path.slice(1);
  while (rest !== '') {
    const match = SEGMENT.exec(rest);
    if (!match) return undefined;
    segments.push(match[1] ?? Number(match[2]));
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/**
 * The RE2 program of a pattern with the given re2js engine, or why it is refused (syntax RE2
 * cannot run linearly, or too large). The engine is passed in because the API validates with
 * re2js imported, while a probe loads it only for a check that asserts `matches`
 * (lib/probes/pattern-engine.ts).
 */
export function compileWith(engine: typeof RE2JS, pattern: string): RE2JS | string {
  if (pattern.length > MAX_PATTERN_LENGTH) return `Use at most ${MAX_PATTERN_LENGTH} characters.`;
  let compiled: RE2JS;
  try {
    compiled = engine.compile(engine.translateRegExp(pattern));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `This is not a supported regular expression (RE2 syntax: no backreferences or lookaround): ${reason.replace(/\.$/, '')}.`;
  }
  if (compiled.programSize() > MAX_PATTERN_INSTRUCTIONS) {
    return `This pattern is too complex: use at most ${MAX_PATTERN_INSTRUCTIONS} RE2 instructions.`;
  }
  return compiled;
}
