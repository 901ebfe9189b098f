import type { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { runsAlone } from '../../check-types/registry.ts';
import {
  type JobRunnerDeps,
  type ProbeElsewhere,
  type ProbeJob,
  probeJobId,
  probeJobSchema,
  recordProbed,
  runProbeJob,
} from '../../checks/probe-job.ts';
import { type CellJob, type CellRunner, cellJobSchema } from '../../checks/probing.ts';
import type { Clock } from '../../platform/clock.ts';
import { delaySecondsFor, type ReceivedJob } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  type BrowserJob,
  type ProbedJob,
  probedJobSchema,
  probedResult,
  sendBrowserJob,
} from '../browser-function.ts';
import { type BatchMetrics, createSqsBatchHandler } from '../queues/sqs-batch.ts';
import { createSqsJobQueue, type SqsJobQueue } from '../queues/sqs-job-queue.ts';

/**
 * What the probe queue carries: a cell's slot (pull checks), one check's job (push deadlines,
 * located and browser checks' slots, located slots' decisions, older messages), or the result of a
 * browser check's slot the browser function ran (./browser-function.ts).
 */
export const workerJobSchema = z.union([cellJobSchema, probeJobSchema, probedJobSchema]);
export type WorkerJob = CellJob | ProbeJob | ProbedJob;

/** The probe job queue on SQS (bodies parsed as cell or probe jobs). */
export function createProbeJobQueue(deps: {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
}): SqsJobQueue<WorkerJob> {
  return createSqsJobQueue({ ...deps, name: 'probe', schema: workerJobSchema });
}

/**
 * The job runner's `decideLater` on SQS: the slot's `decide` job, delayed until `atMs` (whole
 * seconds, at most 900: a slot's deadline is well within it), its envelope id
 * `decide:<check>:<slot>`; a second message (a redelivered probe job) decides nothing twice.
 */
function decideLaterOn(queue: Pick<SqsJobQueue<WorkerJob>, 'enqueue'>, clock: Clock) {
  return async (job: ProbeJob, atMs: number): Promise<void> => {
    const delaySeconds = delaySecondsFor(atMs, clock.now());
    const { failed } = await queue.enqueue([{ id: probeJobId(job), body: job, delaySeconds }]);
    if (failed.length > 0) throw new Error(`the probe queue did not take ${probeJobId(job)}`);
  };
}

/**
 * Runs one delivered probe job. Duplicate, gone and skipped outcomes are done; a throw fails the
 * attempt (retried after 1 s, 2 s, 4 s, then a dead letter).
 */
function createProbeJobHandler(deps: { jobRunner: JobRunnerDeps; cells: CellRunner; logger: Logger }) {
  return async (job: ReceivedJob<WorkerJob>): Promise<void> => {
    const { body } = job;
    if (body.kind === 'probed') {
      const outcome = await recordProbed(body.job, probedResult(body), deps.jobRunner);
      deps.logger.debug('probed job recorded', {
        job_id: job.id,
        check_id: body.job.check_id,
        status: outcome.status,
        attempt: job.attempt,
      });
      return;
    }
    if (body.kind === 'cell') {
      const outcome = await deps.cells.run(body);
      deps.logger.debug('cell job done', {
        job_id: job.id,
        cell_id: body.cell_id,
        status: outcome.status,
        attempt: job.attempt,
      });
      return;
    }
    const outcome = await runProbeJob(body, deps.jobRunner);
    deps.logger.debug('probe job done', {
      job_id: job.id,
      check_id: body.check_id,
      status: outcome.status,
      attempt: job.attempt,
    });
  };
}

/**
 * The probe worker Lambda's handler: an SQS batch of probe jobs through Powertools batch
 * processing (records run concurrently; the ones whose job threw, or that are not probe jobs, are
 * reported as batch item failures, after their retry delay is set). A message in a newer format
 * during a deploy is thereby retried, and one that never parses rests in the DLQ for inspection.
 */
export function createWorkerHandler(deps: {
  queue: SqsJobQueue<WorkerJob>;
  /**
   * Where browser checks' slots go (the browser function's queue), resolved at its first use;
   * absent (tests of other jobs): they run on the job runner's prober.
   */
  browserQueue?: () => Pick<SqsJobQueue<BrowserJob>, 'enqueue'>;
  /** A tenant's retention (days), sent with a browser job: its artifacts expire with it. */
  retentionDays?: (tenantId: string) => Promise<number>;
  jobRunner: JobRunnerDeps;
  cells: CellRunner;
  clock: Clock;
  logger: Logger;
  metrics?: BatchMetrics<WorkerJob>;
}) {
  // A located check's slot schedules its decision on this same queue; a browser check's slot runs
  // in the browser function, whose result comes back here as a `probed` job.
  const { browserQueue } = deps;
  const elsewhere: ProbeElsewhere | undefined = browserQueue && {
    takes: (def) => runsAlone(def.check_type),
    send: async (job, def) =>
      sendBrowserJob(browserQueue(), job, def, await deps.retentionDays?.(job.tenant_id)),
  };
  const jobRunner = {
    ...deps.jobRunner,
    decideLater: decideLaterOn(deps.queue, deps.clock),
    ...(elsewhere ? { elsewhere } : {}),
  };
  return createSqsBatchHandler({
    queue: deps.queue,
    handle: createProbeJobHandler({ ...deps, jobRunner }),
    logger: deps.logger,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
}
