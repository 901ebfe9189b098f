import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { SqsJobQueue } from './sqs-job-queue.ts';

/** The parts of an SQS event the batch path reads; the rest of each record passes unchecked. */
const sqsEventSchema = z.object({
  Records: z.array(
    z.looseObject({
      messageId: z.string().min(1),
      receiptHandle: z.string().min(1),
      body: z.string(),
      attributes: z.looseObject({ ApproximateReceiveCount: z.string() }),
    }),
  ),
});

/**
 * The Lambda event-source path of a job queue: Powertools batch processing over an SQS batch,
 * reporting partial batch failures. A record whose job throws (or whose body does not parse) first
 * gets its visibility changed to the retry delay, so it comes back after 1 s, 2 s, 4 s as on the
 * queue's own `fail`, and after its last attempt the redrive policy dead-letters it.
 */
export function createSqsBatchHandler<B>(deps: {
  queue: SqsJobQueue<B>;
  handle(job: ReceivedJob<B>): Promise<void>;
  logger: Logger;
}) {
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    const delivery = {
      receipt: record.receiptHandle,
      attempt: Number(record.attributes.ApproximateReceiveCount) || 1,
    };
    try {
      await deps.handle(deps.queue.parse(record.body, delivery));
    } catch (error) {
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
        deps.logger.error('could not set the retry delay', { message_id: record.messageId, visibilityError });
      }
      throw error;
    }
  };

  /** Handles one SQS event; an event that is not an SQS batch throws (the whole batch comes back). */
  return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
    const batch = sqsEventSchema.parse(event);
    // A processor per event: it holds one batch's state, and tests may run handlers concurrently.
    const processor = new BatchProcessor(EventType.SQS);
    // Each failed record already has its retry delay, so a batch that failed whole is answered
    // like any other (every record listed) rather than thrown.
    return processPartialResponse(batch, recordHandler, processor, {
      context,
      throwOnFullBatchFailure: false,
    });
  };
}
