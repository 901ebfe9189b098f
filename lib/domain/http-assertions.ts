import { RE2JS } from 're2js';
import * as z from 'zod';
import { assertionInput } from './assertions/assertion-input.ts';
import { compileWith } from './assertions/assertion-syntax.ts';
import type { ASSERTION_OPS, ASSERTION_SOURCES } from './assertions/stored-assertions.ts';

/**
 * HTTP assertions (DECISIONS.md "HTTP assertions and degraded"): what an http check asserts on
 * the response besides its expected status, all of which must pass. Validated here once, at the
 * API boundary (a regex must compile on RE2 within a program budget, a json path must parse), and
 * stored leniently so a stored check always reads back (./stored-assertions.ts, which the
 * functions that only read checks import without RE2). lib/probes/assertions.ts evaluates them.
 */

type AssertionSource = (typeof ASSERTION_SOURCES)[number];
export type AssertionOp = (typeof ASSERTION_OPS)[number];

const MAX_ASSERTIONS = 20;

export type AssertionValue = string | number | boolean | null;

export interface HttpAssertion {
  source: AssertionSource;
  path?: string;
  op: AssertionOp;
  value?: AssertionValue;
}

/** The RE2 program of a pattern, or why it is refused (syntax RE2 cannot run linearly, or too large). */
function compilePattern(pattern: string): RE2JS | string {
  return compileWith(RE2JS, pattern);
}

/**
 * One assertion as requests send it (./assertions/assertion-input.ts), RE2 refusing the patterns
 * it cannot run linearly or that compile too large.
 */
export const assertionInputSchema = assertionInput(compilePattern).meta({ id: 'HttpAssertion' });

export const assertionsInputSchema = z
  .array(assertionInputSchema)
  .max(MAX_ASSERTIONS, { error: `Use at most ${MAX_ASSERTIONS} assertions.` });

/** `degraded_latency_ms`: a success slower than this is degraded. */
export const degradedLatencySchema = z
  .number()
  .int()
  .min(1)
  .max(600_000)
  .nullable()
  .meta({ description: 'A successful probe slower than this (ms) makes the check degraded; null: never' });
