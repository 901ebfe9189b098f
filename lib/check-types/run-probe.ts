import { degradeIfSlow, failed } from '../probes/outcome.ts';
import type { ProbeDefinition, ProbeDeps, ProbeOutcome, Prober } from '../probes/types.ts';
import { redactOutcome } from './outcome-redaction.ts';
import { CHECK_TYPE_PROBES } from './probing/probe-registry.ts';
import { isCheckType, isProbedType } from './registry.ts';

/**
 * Runs the probe for a pull check's type. Never throws: every failure is a failed outcome. What it
 * answers is the only text a probe produces, so the check's secrets are hidden here, once, for
 * every runtime and caller (lib/check-types/outcome-redaction.ts).
 */
export async function runProbe(def: ProbeDefinition, deps: ProbeDeps): Promise<ProbeOutcome> {
  return redactOutcome(degradeIfSlow(await probeOnce(def, deps), def.degraded_latency_ms), def);
}

async function probeOnce(def: ProbeDefinition, deps: ProbeDeps): Promise<ProbeOutcome> {
  try {
    // Data read at runtime may name a type no longer known (push checks have no probe either).
    const type = def.check_type;
    if (!isCheckType(type) || !isProbedType(type)) return failed(`unsupported check type: ${type}`, 0);
    // The registry pairs each type with its own probe; the job's check_type chose it.
    const probe = CHECK_TYPE_PROBES[type] as (job: ProbeDefinition, deps: ProbeDeps) => Promise<ProbeOutcome>;
    return await probe(def, deps);
  } catch (err) {
    // The probes catch their own failures; this is the backstop for a bug, not a path.
    return failed(`probe failed: ${err instanceof Error ? err.message : String(err)}`, 0);
  }
}

/** The prober that runs each probe on the calling thread. */
export function inProcessProber(deps: ProbeDeps): Prober {
  return async (def) => {
    const startedMs = deps.clock.now();
    return { outcome: await runProbe(def, deps), startedMs };
  };
}
