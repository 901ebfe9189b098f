import middy from '@middy/core';
import type { SQSBatchResponse } from 'aws-lambda';
import { z } from 'zod';
import { type JobRunnerDeps, type ProbeJob, probeJobSchema, runProbeJob } from '../checks/probe-job.ts';
import type { Logger } from '../platform/logger.ts';
import { mapBounded } from './bounded.ts';

/** The parts of an SQS event record the worker reads; the rest of the record passes unchecked. */
const sqsEventSchema = z.object({
  Records: z.array(
    z.looseObject({
      messageId: z.string().min(1),
      body: z.string(),
      attributes: z.looseObject({ ApproximateReceiveCount: z.string().optional() }).optional(),
    }),
  ),
});

function parseJob(body: string): ProbeJob | undefined {
  try {
    const parsed = probeJobSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface WorkerDeps {
  jobRunner: JobRunnerDeps;
  logger: Logger;
  /** Jobs of one batch run at once. @default 10 (the event source's batch size) */
  concurrency?: number;
}

/**
 * The probe worker Lambda: an SQS batch of probe jobs, run concurrently; the messages whose job
 * threw are reported as batch item failures (ReportBatchItemFailures), so only they come back.
 * Duplicate, gone and skipped outcomes are successes. A message that is not a probe job is logged
 * and reported as a failure too: after maxReceiveCount it rests in the DLQ for inspection, and
 * during a deploy a job in a newer format gets retried by a newer worker instead of being lost.
 */
export function createWorkerHandler(deps: WorkerDeps) {
  return middy<unknown, SQSBatchResponse>().handler(async (event) => {
    const { Records } = sqsEventSchema.parse(event);
    const failed = await mapBounded(Records, deps.concurrency ?? 10, async (record) => {
      const receives = record.attributes?.ApproximateReceiveCount;
      const job = parseJob(record.body);
      if (!job) {
        deps.logger.error('malformed probe job message', { message_id: record.messageId, receives });
        return record.messageId;
      }
      const log = deps.logger.child({ message_id: record.messageId, check_id: job.check_id });
      try {
        const outcome = await runProbeJob(job, deps.jobRunner);
        log.debug('probe job done', { status: outcome.status, slot_ms: job.slot_ms, receives });
        return undefined;
      } catch (error) {
        log.error('probe job failed', { slot_ms: job.slot_ms, receives, error });
        return record.messageId;
      }
    });
    return {
      batchItemFailures: failed.flatMap((id) => (id === undefined ? [] : [{ itemIdentifier: id }])),
    };
  });
}
