import type { ProbeJob } from '../checks/probe-job.ts';
import type { CellJob, CellRunner } from '../checks/probing.ts';
import type { Clock } from '../platform/clock.ts';
import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Prober } from '../probes/types.ts';
import type { LocalCellBody, ProbeQueue } from './probe-queue.ts';
import { callHook, type JobStart, type ProbeSlots } from './probe-slots.ts';

export interface CellJobsDeps {
  cells: CellRunner;
  queue: ProbeQueue;
  /** The probes' bound shared with per-check jobs. */
  slots: ProbeSlots;
  /** The runtime's prober (probe threads, or the event loop). */
  prober: Prober;
  clock: Clock;
  logger: Logger;
  onJobStart?: (start: JobStart) => void;
  onProbeStart?: (start: JobStart) => void;
  /** True once the scheduler stops: a job failing then is left queued for the restart. */
  stopped(): boolean;
}

/** What became of one run of a cell job (the scheduler's JobStatus). */
export type CellJobStatus = 'recorded' | 'duplicate' | 'gone' | 'retry' | 'dead' | 'abandoned';

/**
 * Runs the local probe queue's cell jobs with the cell runner. A cell job does not take a worker
 * pool slot: what config.workerConcurrency bounds is probes in flight, and a cell job's members
 * take one probe slot each (ProbeSlots, shared with the per-check jobs), so one job of 100
 * members waits for 100 slots, not one. The job is acked after the runner stored its slot: a crash
 * in between leaves it queued, and the restart applies its stored results first (cell-recovery.ts),
 * then runs the slot again if it is still current, which the runner makes harmless (its results put
 * is conditional, and members apply a slot once). A job that throws is retried like a probe job
 * (after 1 s, 2 s, 4 s, then a dead letter).
 */
export function createCellJobs(deps: CellJobsDeps) {
  const { logger } = deps;
  const running = new Set<Promise<CellJobStatus>>();

  /** Without hooks (the product), every member probes through the same bounded prober. */
  const bounded = deps.slots.bounded(deps.prober);

  /**
   * A member's prober: its probe slot, and the hooks told of it as of a job of its check at the
   * slot. Without hooks it is the shared bounded prober: no closures and job objects per member
   * (a cell job makes 100 of them, at the maximum rate thousands per second).
   */
  const proberFor = (job: CellJob): ((checkId: string) => Prober) => {
    if (!deps.onJobStart && !deps.onProbeStart) return () => bounded;
    return (checkId: string) => {
      const memberJob: ProbeJob = {
        tenant_id: job.tenant_id,
        check_id: checkId,
        kind: 'probe',
        slot_ms: job.slot_ms,
      };
      const dueMs = job.slot_ms;
      const hooked = deps.slots.bounded(deps.prober, () =>
        callHook(
          deps.onJobStart,
          { dueMs, startedMs: deps.clock.now(), job: memberJob },
          logger,
          'onJobStart',
        ),
      );
      return async (definition: Parameters<Prober>[0]) => {
        const probed = await hooked(definition);
        callHook(
          deps.onProbeStart,
          { dueMs, startedMs: probed.startedMs, job: memberJob },
          logger,
          'onProbeStart',
        );
        return probed;
      };
    };
  };

  const run = async (delivery: ReceivedJob<LocalCellBody>): Promise<CellJobStatus> => {
    const { next_ms: _next, ...job } = delivery.body;
    try {
      const outcome = await deps.cells.run(job, { proberFor: proberFor(job) });
      await deps.queue.ack([delivery]);
      return outcome.status;
    } catch (err) {
      const fields = { cell_id: job.cell_id, slot_ms: job.slot_ms, attempt: delivery.attempt, err };
      if (deps.stopped()) {
        logger.debug('cell job abandoned at stop; left queued', fields);
        return 'abandoned';
      }
      const failed = await deps.queue.fail(delivery, err);
      if (failed.status === 'retry') logger.warn('cell job failed; will retry', fields);
      else logger.error('cell job failed too often; dead-lettered', fields);
      return failed.status;
    }
  };

  return {
    /** Runs a delivered cell job now (it starts at once; its probes wait for their slots). */
    execute(delivery: ReceivedJob<LocalCellBody>): Promise<CellJobStatus> {
      const done = run(delivery);
      running.add(done);
      const forget = () => running.delete(done);
      done.then(forget, forget);
      return done;
    },
    /** Resolves once no cell job runs. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    /** Cell jobs running. */
    get running(): number {
      return running.size;
    },
  };
}
