import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

let engine: typeof RE2JS | undefined;

/**
 * re2js, loaded when a probe first evaluates a `matches` assertion, not with this module: it is
 * 150 KB of a bundle that only regex assertions use. The cloud leaves it out of the worker's
 * bundle (infra/node-function.ts `lazyModules`), so the http probe awaits this before it
 * evaluates such an assertion.
 */
export async function loadPatternEngine(): Promise<typeof RE2JS> {
  engine ??= (await import('re2js')).RE2JS;
  return engine;
}

/**
 * The engine for evaluating: the one loadPatternEngine loaded, or, for a caller that evaluates
 * without a probe (a test), re2js required synchronously from node_modules.
 */
export function patternEngine(): typeof RE2JS {
  engine ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  return engine;
}
