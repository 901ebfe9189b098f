import { compileWith, type PathSegment, parseJsonPath } from '../domain/assertions.ts';
import type { AssertionValue, HttpAssertion } from '../domain/http-assertions.ts';
import { failureMessage, subject } from './assertion-text.ts';
import { patternEngine } from './pattern-engine.ts';

/**
 * Evaluates an http check's assertions on one response (DECISIONS.md "HTTP assertions and
 * degraded"). Pure and total: any input answers a message or undefined, never throws. The body is
 * the bounded prefix the probe read (64 KiB), parsed as JSON at most once per response; regexes
 * run on RE2 (re2js), linear in the text.
 */

export interface AssertedResponse {
  status: number;
  /** Header names in lower case (Node's); a repeated header's values joined with ", ". */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
  latencyMs: number;
}

/** What a source gives: a value, or `undefined` when it is missing (no such header or json path). */
type Actual = unknown;

const MISSING = undefined;
const NOT_JSON = Symbol('not json');

/** The value at a parsed path (own properties only, so `$.constructor` is missing, not a function). */
export function walkJson(root: unknown, segments: readonly PathSegment[]): Actual {
  let node: unknown = root;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(node) || segment >= node.length) return MISSING;
      node = node[segment];
    } else {
      if (typeof node !== 'object' || node === null || Array.isArray(node)) return MISSING;
      if (!Object.hasOwn(node, segment)) return MISSING;
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return node;
}

/** A number when the value is one or numeric text ("42", " 1.5 "), else undefined. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Text of a value: strings as they are, anything else as JSON. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** eq: as numbers when both sides are numeric, else as text (objects and arrays as JSON). */
function equal(actual: Actual, expected: AssertionValue | undefined): boolean {
  if (actual === MISSING) return false;
  const a = numeric(actual);
  const b = numeric(expected);
  if (a !== undefined && b !== undefined) return a === b;
  return text(actual) === text(expected);
}

function contains(actual: Actual, expected: AssertionValue | undefined): boolean {
  if (actual === MISSING) return false;
  if (Array.isArray(actual)) return actual.some((item) => equal(item, expected));
  return text(actual).includes(text(expected));
}

type Verdict = true | string;

/** Compiled patterns, so a check's regex compiles once per process, not per probe; bounded. */
const patterns = new Map<string, ReturnType<typeof compileWith>>();
const MAX_PATTERNS = 512;
function compiled(pattern: string): ReturnType<typeof compileWith> {
  let found = patterns.get(pattern);
  if (found === undefined) {
    found = compileWith(patternEngine(), pattern);
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(pattern, found);
  }
  return found;
}

function compare(op: 'lt' | 'lte' | 'gt' | 'gte', actual: Actual, expected: unknown): Verdict {
  const a = numeric(actual);
  const b = numeric(expected);
  if (a === undefined || b === undefined) return 'is not a number';
  const ok = op === 'lt' ? a < b : op === 'lte' ? a <= b : op === 'gt' ? a > b : a >= b;
  return ok || '';
}

/** Whether the actual value passes the op: true, or '' (failed) or a reason it could not be judged. */
function judge(assertion: HttpAssertion, actual: Actual): Verdict {
  const { op, value } = assertion;
  switch (op) {
    case 'eq':
      return equal(actual, value) || '';
    case 'ne':
      return !equal(actual, value) || '';
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return actual === MISSING ? 'is missing' : compare(op, actual, value);
    case 'contains':
      return contains(actual, value) || '';
    case 'not_contains':
      return !contains(actual, value) || '';
    case 'matches': {
      if (actual === MISSING) return 'is missing';
      const pattern = typeof value === 'string' ? compiled(value) : 'is not a pattern';
      if (typeof pattern === 'string') return `pattern refused: ${pattern.replace(/\.$/, '')}`;
      return pattern.matcher(text(actual)).find() || '';
    }
    case 'exists':
      return (actual !== MISSING) === (value ?? true) || '';
  }
}

/**
 * The first failing assertion's message, or undefined when all pass. The body is parsed as JSON
 * once, and only if some assertion reads json.
 */
export function evaluateAssertions(
  assertions: readonly HttpAssertion[],
  response: AssertedResponse,
): string | undefined {
  let parsed: unknown = NOT_JSON;
  let tried = false;
  const json = (): unknown => {
    if (!tried) {
      tried = true;
      try {
        parsed = JSON.parse(response.body);
      } catch {
        parsed = NOT_JSON;
      }
    }
    return parsed;
  };
  for (const assertion of assertions) {
    let actual: Actual;
    switch (assertion.source) {
      case 'status':
        actual = response.status;
        break;
      case 'latency_ms':
        actual = response.latencyMs;
        break;
      case 'body':
        actual = response.body;
        break;
      case 'header': {
        const raw = response.headers[(assertion.path ?? '').toLowerCase()];
        actual = Array.isArray(raw) ? raw.join(', ') : raw;
        break;
      }
      case 'json': {
        const root = json();
        if (root === NOT_JSON) {
          return `assertion failed: ${subject(assertion)}: the body is not JSON (or longer than the 64 KiB read)`;
        }
        const segments = parseJsonPath(assertion.path ?? '');
        if (!segments) return `assertion failed: ${subject(assertion)} is not a json path`;
        actual = walkJson(root, segments);
        break;
      }
    }
    const verdict = judge(assertion, actual);
    if (verdict !== true) return failureMessage(assertion, actual, verdict);
  }
  return undefined;
}
