import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Prober } from '../probes/types.ts';
import { type AgentClient, AgentRequestError } from './agent-client.ts';
import { type AgentMetrics, type AgentOperation, createAgentMetrics } from './agent-metrics.ts';
import { createJobMemory, type JobMemory } from './job-memory.ts';
import { toWireResult, unprobedResult } from './probe-result.ts';
import { MAX_LEASE_JOBS, MAX_WAIT_SECONDS, type ReadJob, type ResultEntry } from './protocol.ts';
import { createResultSender } from './result-sender.ts';
import { createBackoff, createNudge, pause } from './waits.ts';

export interface AgentSettings {
  /** The most probes running at once. */
  concurrency: number;
  /** The most results held unacknowledged (probes running count too): leasing pauses at the bound. */
  maxUnsent: number;
  heartbeatIntervalMs: number;
  /** The longest wait between attempts when Vigil cannot be reached. */
  maxBackoffMs: number;
  /**
   * A bounded run (lib/agent/bounded-run.ts): no lease is asked after this time (the clock's), and
   * each lease's wait ends by it, so no long-poll is cut off; then the agent stops as at `stop()`.
   * Unset: the agent leases until stopped.
   */
  leaseUntilMs?: number;
  /**
   * Short polls instead of long-polls: each lease waits 0 s in Vigil, and after one that found
   * nothing the agent pauses this long itself. A long-poll bills its wait in a cloud home's api
   * function; a short poll bills only its read (an AWS region's probe function, which runs for its
   * minute anyway). Unset: long-polls of MAX_WAIT_SECONDS.
   */
  idlePollMs?: number;
}

export interface AgentDeps {
  client: AgentClient;
  /** The workers' prober (lib/check-types/run-probe.ts): the same probe code as the runtimes. */
  prober: Prober;
  clock: Clock;
  logger: Logger;
  version: string;
  /** The jobs taken, kept across bounded runs (a Lambda container's); default: this agent's own. */
  memory?: JobMemory;
}

/** A bounded run asks for no lease with less than this left: a lease waits whole seconds. */
const MIN_LEASE_WAIT_MS = 1000;

/** How long an acknowledged job is remembered, and how many: longer than any slot's deadline. */
const ACKED_TTL_MS = 15 * 60_000;
const MAX_ACKED = 20_000;

/**
 * The agent: leases jobs for its location (long-polls, or short polls: `idlePollMs`), probes them with the workers' prober, at
 * most `concurrency` at once, and posts their results until acknowledged; heartbeats meanwhile.
 * `stop()` (SIGTERM) stops leasing and heartbeats; probes already running finish and their results
 * are posted; `run()` then resolves, or sooner at `abort()` (the grace is over) with what is still
 * unsent. No job is handed back: one not finished is leased again by Vigil once its lease runs out.
 */
export function createAgent(deps: AgentDeps, settings: AgentSettings) {
  const { client, clock, logger } = deps;
  const stopping = new AbortController();
  const aborting = new AbortController();
  const room = createNudge();
  const idle = createNudge();
  const backoff = createBackoff({ baseMs: 500, maxMs: settings.maxBackoffMs });
  const memory = deps.memory ?? createAgentJobMemory();
  let inFlight = 0;
  const metrics: AgentMetrics = createAgentMetrics(deps.version, {
    inFlight: () => inFlight,
    unsent: () => sender.size,
  });
  const sender = createResultSender({ client, memory, metrics, logger, backoff, clock, onRoom: room.nudge });

  const failed = (operation: AgentOperation, err: unknown): AgentRequestError => {
    const failure = err instanceof AgentRequestError ? err : new AgentRequestError(String(err), 'protocol');
    metrics.failed(operation, failure.kind);
    return failure;
  };

  const probe = async (job: ReadJob): Promise<ResultEntry> => {
    if ('problem' in job) {
      logger.warn('a leased job cannot be probed here: its result says why', {
        job_id: job.job_id,
        problem: job.problem,
      });
      metrics.probed('unknown', 'unprobed');
      return { job_id: job.job_id, slot: job.slot, result: unprobedResult(job.problem, clock.now()) };
    }
    metrics.probeStarted((clock.now() - job.slot) / 1000);
    const result = toWireResult(await deps.prober(job.check));
    metrics.probed(job.check.check_type, !result.success ? 'down' : result.degraded ? 'degraded' : 'up');
    logger.debug('probed', { job_id: job.job_id, success: result.success, latency_ms: result.latency_ms });
    return { job_id: job.job_id, slot: job.slot, result };
  };

  /** Jobs leased beyond the free concurrency (a server answering more than `max`): started as probes end. */
  const pending: ReadJob[] = [];

  const start = (job: ReadJob) => {
    memory.probing(job.job_id, job.slot);
    if (inFlight >= settings.concurrency) {
      pending.push(job);
      return;
    }
    inFlight += 1;
    // The prober never rejects (a failure is a failed outcome); the catch is the backstop for a bug.
    void probe(job)
      .catch((err: unknown) => ({
        job_id: job.job_id,
        slot: job.slot,
        result: unprobedResult(
          `probe failed: ${err instanceof Error ? err.message : String(err)}`,
          clock.now(),
        ),
      }))
      .then((entry) => {
        inFlight -= 1;
        sender.add(entry);
        // Not started once stopping: Vigil leases them again when their lease runs out.
        const next = stopping.signal.aborted ? undefined : pending.shift();
        if (next) start(next);
        room.nudge();
        idle.nudge();
      });
  };

  const leaseLoop = async () => {
    const signal = stopping.signal;
    let failures = 0;
    while (!signal.aborted) {
      const busy = inFlight + pending.length;
      const free = Math.min(settings.concurrency - busy, settings.maxUnsent - sender.size - busy);
      if (free <= 0) {
        await room.wait(signal);
        continue;
      }
      const shortPolls = settings.idlePollMs !== undefined;
      let waitSeconds = shortPolls ? 0 : MAX_WAIT_SECONDS;
      let leftMs = Number.POSITIVE_INFINITY;
      if (settings.leaseUntilMs !== undefined) {
        leftMs = settings.leaseUntilMs - clock.now();
        if (leftMs < MIN_LEASE_WAIT_MS) {
          stopping.abort();
          room.nudge();
          return;
        }
        waitSeconds = Math.min(waitSeconds, Math.floor(leftMs / 1000));
      }
      let jobs: ReadJob[];
      try {
        jobs = await client.lease({ max: Math.min(free, MAX_LEASE_JOBS), wait_seconds: waitSeconds }, signal);
        failures = 0;
        metrics.succeeded('lease');
      } catch (err) {
        if (signal.aborted) return;
        const failure = failed('lease', err);
        failures += 1;
        const waitMs = backoff.delayMs(failures, failure.retryAfterMs);
        // A refused key will not mend itself: said louder than an outage.
        const log = failure.kind === 'auth' ? logger.error : logger.warn;
        log('lease failed; asking again', { reason: failure.message, retry_in_ms: waitMs });
        await pause(waitMs, signal);
        continue;
      }
      let again = 0;
      for (const job of jobs) {
        const state = memory.state(job.job_id, job.slot, clock.now());
        if (state === undefined) {
          start(job);
          continue;
        }
        // Taken before: never probed twice. An acknowledged one is answered with its result again.
        again += 1;
        const sent = state === 'acked' ? memory.ackedResult(job.job_id, job.slot) : undefined;
        if (sent) sender.add(sent);
      }
      metrics.leased(jobs.length, again);
      // Nothing due: the next short poll after a pause (a long-poll has waited in Vigil already).
      if (jobs.length === 0 && settings.idlePollMs !== undefined)
        await pause(Math.min(settings.idlePollMs, leftMs - MIN_LEASE_WAIT_MS), signal);
    }
  };

  const heartbeatLoop = async () => {
    const signal = stopping.signal;
    let known: string | undefined;
    while (!signal.aborted) {
      try {
        const answer = await client.heartbeat(deps.version, signal);
        metrics.succeeded('heartbeat');
        if (known !== answer.location.id) {
          known = answer.location.id;
          logger.info('connected to Vigil', {
            location: answer.location.name,
            location_id: answer.location.id,
          });
        }
      } catch (err) {
        if (signal.aborted) return;
        logger.warn('heartbeat failed', { reason: failed('heartbeat', err).message });
      }
      await pause(settings.heartbeatIntervalMs, signal);
    }
  };

  return {
    metrics,
    get inFlight() {
      return inFlight;
    },
    get unsent() {
      return sender.size;
    },
    /** Runs until stopped; answers how many results were left unacknowledged. */
    async run(): Promise<{ unsent: number }> {
      const sending = sender.run(aborting.signal);
      await Promise.all([leaseLoop(), heartbeatLoop()]);
      while (inFlight > 0 && !aborting.signal.aborted) await idle.wait(aborting.signal);
      sender.finish();
      await sending;
      await client.close().catch(() => undefined);
      return { unsent: sender.size + inFlight + pending.length };
    },
    /** Stops leasing and heartbeats; running probes finish and their results are posted. */
    stop(): void {
      stopping.abort();
      room.nudge();
    },
    /** Stops at once: what is still unsent stays unsent. */
    abort(): void {
      stopping.abort();
      aborting.abort();
    },
  };
}

/** The agent's job memory with its bounds: one per agent, or one per Lambda container (bounded runs). */
export function createAgentJobMemory(): JobMemory {
  return createJobMemory({ maxAcked: MAX_ACKED, ackedTtlMs: ACKED_TTL_MS });
}
