import * as z from 'zod';
import { aloneProbe } from '../check-types/registry.ts';
import type { Clock } from '../platform/clock.ts';
import type { BrowserRunner } from '../probes/browser-runner.ts';
import type { Probed } from '../probes/types.ts';

/** What a browser function needs to run a check handed to it: its runner, the SSRF rule and a clock. */
export interface BrowserLegDeps {
  runner: BrowserRunner;
  /** Whether the SSRF guard lets a page reach private addresses (the cloud: no). */
  allowPrivate: boolean;
  clock: Clock;
}

/**
 * Runs a check handed to a browser function (the home's, lib/cloud/browser-function.ts, and a
 * region's, lib/agent/region-browser-function.ts): a type whose slots run alone (the browser's) is
 * run in the runner's child, parsed there; anything else is answered as a `problem`, not run.
 */
export async function runBrowserLeg(
  check: unknown,
  deps: BrowserLegDeps,
): Promise<Probed | { problem: string }> {
  const type = z.object({ check_type: z.string() }).safeParse(check);
  const probe = type.success ? aloneProbe(type.data.check_type) : undefined;
  if (!probe) return { problem: 'the browser function runs browser checks only' };
  return probe(check, { clock: deps.clock, allowPrivate: deps.allowPrivate, browserRunner: deps.runner });
}
