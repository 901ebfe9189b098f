import type { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { type JobRunnerDeps, type ProbeJob, probeJobSchema, runProbeJob } from '../checks/probe-job.ts';
import { type CellJob, type CellRunner, cellJobSchema } from '../checks/probing.ts';
import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import { type BatchMetrics, createSqsBatchHandler } from './sqs-batch.ts';
import { createSqsJobQueue, type SqsJobQueue } from './sqs-job-queue.ts';

/** What the probe queue carries: a cell's slot (pull checks), or one check's job (push deadlines, older messages). */
export const workerJobSchema = z.union([cellJobSchema, probeJobSchema]);
export type WorkerJob = CellJob | ProbeJob;

/** The probe job queue on SQS (bodies parsed as cell or probe jobs). */
export function createProbeJobQueue(deps: {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
}): SqsJobQueue<WorkerJob> {
  return createSqsJobQueue({ ...deps, name: 'probe', schema: workerJobSchema });
}

/**
 * Runs one delivered probe job. Duplicate, gone and skipped outcomes are done; a throw fails the
 * attempt (retried after 1 s, 2 s, 4 s, then a dead letter).
 */
export function createProbeJobHandler(deps: { jobRunner: JobRunnerDeps; cells: CellRunner; logger: Logger }) {
  return async (job: ReceivedJob<WorkerJob>): Promise<void> => {
    const { body } = job;
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
  jobRunner: JobRunnerDeps;
  cells: CellRunner;
  logger: Logger;
  metrics?: BatchMetrics<WorkerJob>;
}) {
  return createSqsBatchHandler({
    queue: deps.queue,
    handle: createProbeJobHandler(deps),
    logger: deps.logger,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
}
