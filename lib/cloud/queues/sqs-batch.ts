import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import type { ReceivedJob } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { SqsJobQueue } from './sqs-job-queue.ts';

/**
 * The parts of an SQS event the batch path reads; the rest of each record passes unchecked.
 * Not Powertools parser's SqsSchema: the parser imports `{ z }` from zod, which esbuild cannot
 * tree-shake, and it added 370 KB (all of zod's locales) to every queue function's bundle
 * (measured: a one-schema file bundles to 455 KB with SqsSchema, 85 KB with this).
 */
const sqsEventSchema = z.object({
  Records: z.array(
    z.looseObject({
      messageId: z.string().min(1),
      receiptHandle: z.string().min(1),
      body: z.string(),
      attributes: z.looseObject({
        ApproximateReceiveCount: z.string(),
        SentTimestamp: z.string().optional(),
      }),
    }),
  ),
});

/** What a batch reports: the age of its oldest message, and per counted job whether it ran or failed. */
export interface BatchMetrics<B> {
  metrics: Metrics;
  /** The metric names of a job that ran and of one that failed; undefined: the job is not counted. */
  names(body: B): { ok: string; failed: string } | undefined;
  now?: () => number;
}

/** The queue lag of a batch: how long its oldest message waited (SentTimestamp is epoch milliseconds). */
function oldestAgeMs(records: { attributes: { SentTimestamp?: string | undefined } }[], now: number) {
  const sent = records
    .map((r) => Number(r.attributes.SentTimestamp))
    .filter((t) => Number.isFinite(t) && t > 0);
  return sent.length > 0 ? Math.max(0, now - Math.min(...sent)) : undefined;
}

/**
 * The Lambda event-source path of a job queue: Powertools batch processing over an SQS batch,
 * reporting partial batch failures. A record whose job throws (or whose body does not parse) first
 * gets its visibility changed to the retry delay, so it comes back after 1 s, 2 s, 4 s … (the
 * queue's schedule, or the delay a RetryLaterError names) as on the queue's own `fail`, and after
 * its last attempt the redrive policy dead-letters it.
 */
export interface SqsBatchHandlerDeps<B> {
  queue: SqsJobQueue<B>;
  handle(job: ReceivedJob<B>): Promise<void>;
  logger: Logger;
  metrics?: BatchMetrics<B>;
}

export function createSqsBatchHandler<B>(deps: SqsBatchHandlerDeps<B>) {
  const recordHandler =
    (tally: Map<string, number>) =>
    async (record: SQSRecord): Promise<void> => {
      const delivery = {
        receipt: record.receiptHandle,
        attempt: Number(record.attributes.ApproximateReceiveCount) || 1,
      };
      let names: { ok: string; failed: string } | undefined;
      const add = (name: string | undefined) => name && tally.set(name, (tally.get(name) ?? 0) + 1);
      try {
        const job = deps.queue.parse(record.body, delivery);
        names = deps.metrics?.names(job.body);
        await deps.handle(job);
        add(names?.ok);
      } catch (error) {
        add(names?.failed);
        deps.logger.error('job failed', {
          queue: deps.queue.name,
          message_id: record.messageId,
          attempt: delivery.attempt,
          error,
        });
        try {
          await deps.queue.failDelivery(delivery, error);
        } catch (visibilityError) {
          // The record still fails; it comes back after the queue's visibility timeout instead.
          deps.logger.error('could not set the retry delay', {
            message_id: record.messageId,
            visibilityError,
          });
        }
        throw error;
      }
    };

  /** Handles one SQS event; an event that is not an SQS batch throws (the whole batch comes back). */
  return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
    const batch = sqsEventSchema.parse(event);
    const m = deps.metrics;
    const lag = m && oldestAgeMs(batch.Records, (m.now ?? Date.now)());
    if (m && lag !== undefined) m.metrics.milliseconds('QueueLag', lag);
    // A processor per event: it holds one batch's state, and tests may run handlers concurrently.
    const processor = new BatchProcessor(EventType.SQS);
    const tally = new Map<string, number>();
    // Each failed record already has its retry delay, so a batch that failed whole is answered
    // like any other (every record listed) rather than thrown.
    const response = await processPartialResponse(batch, recordHandler(tally), processor, {
      context,
      throwOnFullBatchFailure: false,
    });
    for (const [name, value] of tally) m?.metrics.count(name, value);
    return response;
  };
}

/**
 * A batch handler built at its first invocation, so that importing a function module (tests do)
 * needs no queue URL: `deps` reads it then.
 */
export function lazySqsBatchHandler<B>(deps: () => SqsBatchHandlerDeps<B>) {
  let handler: ((event: unknown, context: Context) => Promise<SQSBatchResponse>) | undefined;
  return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
    handler ??= createSqsBatchHandler(deps());
    return handler(event, context);
  };
}
