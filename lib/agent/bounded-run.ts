import { type AgentDeps, createAgent } from './agent.ts';
import { type AgentClient, AgentRequestError } from './agent-client.ts';
import type { JobMemory } from './job-memory.ts';

/** A run of the agent with an end: what an AWS region's probe function does each minute. */
export interface BoundedRunSettings {
  /** From the start, how long leases are asked for (the last lease's wait ends by then). */
  leaseForMs: number;
  /**
   * From the start, when the run ends whatever is left: results still unsent are dropped (Vigil
   * leases their jobs again once their lease runs out), running probes are abandoned.
   */
  hardStopMs: number;
  concurrency: number;
  maxUnsent: number;
  heartbeatIntervalMs: number;
  maxBackoffMs: number;
  /** Short polls with this pause after an empty lease (lib/agent/agent.ts `idlePollMs`); unset: long-polls. */
  idlePollMs?: number;
}

export interface BoundedRunOutcome {
  /** Jobs handed out by Vigil's leases during the run (a redelivered one counts again). */
  leased: number;
  /** Results Vigil answered for (recorded, duplicate, expired or rejected). */
  answered: number;
  /** Results left unsent when the run ended. */
  unsent: number;
  /** Vigil refused the location key (401/403): the run stopped at once. */
  refused: boolean;
}

/**
 * Runs the agent (lib/agent/agent.ts, its client, result sender and job memory unchanged) for a
 * bounded time: it leases until `leaseForMs`, then stops as at SIGTERM (running probes finish and
 * their results are posted) and is aborted at `hardStopMs` at the latest. `deps.memory` outlives
 * the run (a Lambda container's), so a job redelivered to a later run is never probed twice once
 * its result was acknowledged; the jobs whose results were not are forgotten at the end, so a later
 * run probes them again. A refused key stops the run at once: waiting cannot mend it.
 */
export async function runAgentFor(
  deps: AgentDeps & { memory: JobMemory },
  settings: BoundedRunSettings,
): Promise<BoundedRunOutcome> {
  const counts = { leased: 0, answered: 0, refused: false };
  let stopRun = () => {};
  const refusedKey = (err: unknown) => {
    if (err instanceof AgentRequestError && err.kind === 'auth') {
      counts.refused = true;
      stopRun();
    }
    throw err;
  };
  const inner = deps.client;
  const client: AgentClient = {
    lease: (body, signal) =>
      inner.lease(body, signal).then((jobs) => {
        counts.leased += jobs.length;
        return jobs;
      }, refusedKey),
    postResults: (entries, signal) =>
      inner.postResults(entries, signal).then((answer) => {
        counts.answered += answer.results.length;
        return answer;
      }, refusedKey),
    heartbeat: (version, signal) => inner.heartbeat(version, signal).catch(refusedKey),
    close: () => inner.close(),
  };
  const startedMs = deps.clock.now();
  const agent = createAgent(
    { ...deps, client },
    {
      concurrency: settings.concurrency,
      maxUnsent: settings.maxUnsent,
      heartbeatIntervalMs: settings.heartbeatIntervalMs,
      maxBackoffMs: settings.maxBackoffMs,
      leaseUntilMs: startedMs + settings.leaseForMs,
      ...(settings.idlePollMs !== undefined ? { idlePollMs: settings.idlePollMs } : {}),
    },
  );
  stopRun = () => agent.abort();
  const hardStop = setTimeout(() => agent.abort(), settings.hardStopMs);
  try {
    const { unsent } = await agent.run();
    return { ...counts, unsent };
  } finally {
    clearTimeout(hardStop);
    deps.memory.forgetUnacknowledged();
  }
}
