import { runDnsProbe } from './dns-probe.ts';
import { runHttpProbe } from './http-probe.ts';
import { degradeIfSlow, failed } from './outcome.ts';
import { redactOutcome } from './outcome-redaction.ts';
import { runTcpProbe } from './tcp-probe.ts';
import { runTlsProbe } from './tls-probe.ts';
import type { ProbeDefinition, ProbeDeps, ProbeOutcome, Prober } from './types.ts';

/**
 * Runs the probe for a pull check's type. Never throws: every failure is a failed outcome. What it
 * answers is the only text a probe produces, so the check's secrets are hidden here, once, for
 * every runtime and caller (lib/probes/outcome-redaction.ts).
 */
export async function runProbe(def: ProbeDefinition, deps: ProbeDeps): Promise<ProbeOutcome> {
  return redactOutcome(degradeIfSlow(await probeOnce(def, deps), def.degraded_latency_ms), def);
}

async function probeOnce(def: ProbeDefinition, deps: ProbeDeps): Promise<ProbeOutcome> {
  try {
    switch (def.check_type) {
      case 'http':
        return await runHttpProbe(def, deps);
      case 'tcp':
        return await runTcpProbe(def, deps);
      case 'tls':
        return await runTlsProbe(def, deps);
      case 'dns':
        return await runDnsProbe(def, deps);
      default: {
        // Unreachable for typed callers (push checks have no probe); kept for data read at runtime.
        const unsupported: never = def;
        return failed(`unsupported check type: ${JSON.stringify(unsupported)}`, 0);
      }
    }
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
