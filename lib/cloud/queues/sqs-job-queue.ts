import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { chunks } from '../../platform/chunks.ts';
import {
  afterFailure,
  DEFAULT_RETRIES,
  enqueuedDelaySeconds,
  type FailOutcome,
  type JobQueue,
  type JobQueueAdapter,
  type ReceivedJob,
  type RetrySchedule,
} from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import { SQS_BATCH_SIZE, sendInBatches } from './sqs-send.ts';

/**
 * The SQS adapter of the job-queue port. A message body is the envelope `{id, body}`; a retry is
 * the message's visibility changed to the retry delay (1 s, 2 s, 4 s … by ApproximateReceiveCount,
 * up to the schedule's cap, or the delay a RetryLaterError names), not the queue's visibility
 * timeout; after the last attempt the message is made visible at once and the queue's redrive
 * policy (maxReceiveCount = the schedule's attempts, infra/) moves it to the dead-letter queue on
 * its next receive. Standard queues may deliver a message twice: the
 * envelope's id is what lets a consumer see a duplicate.
 */

/** The message body of every job. */
export const jobEnvelopeSchema = z.object({ id: z.string().min(1), body: z.unknown() });

/** What a delivery needs to be failed, whether or not its body parsed. */
export interface Delivery {
  receipt: string;
  attempt: number;
}

export interface SqsJobQueueDeps<B> {
  sqs: SQSClient;
  queueUrl: string;
  name: string;
  /** Parses each received body; a body that does not parse is failed like a job that threw. */
  schema: z.ZodType<B>;
  logger: Logger;
  /** Its maxAttempts must equal the queue's redrive maxReceiveCount; default DEFAULT_RETRIES. */
  retries?: RetrySchedule;
}

/** A malformed message: not an envelope, or a body its queue does not accept. */
class MalformedJobError extends Error {
  override name = 'MalformedJobError';
}

/** A named job queue on SQS (see the file comment). */
export function createSqsJobQueue<B>(deps: SqsJobQueueDeps<B>) {
  const { sqs, queueUrl, name, logger } = deps;
  const retries = deps.retries ?? DEFAULT_RETRIES;

  /** Parses a message body into a job (throws MalformedJobError). */
  const parseBody = (text: string, delivery: Delivery): ReceivedJob<B> => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new MalformedJobError('message body is not JSON', { cause });
    }
    const envelope = jobEnvelopeSchema.safeParse(json);
    if (!envelope.success)
      throw new MalformedJobError('message is not a job envelope', { cause: envelope.error });
    const body = deps.schema.safeParse(envelope.data.body);
    if (!body.success)
      throw new MalformedJobError(`job ${envelope.data.id} has a malformed body`, { cause: body.error });
    return { id: envelope.data.id, body: body.data, ...delivery };
  };

  /** Ends a failed attempt of any delivery, parsed or not. */
  const failDelivery = async (delivery: Delivery, error?: unknown): Promise<FailOutcome> => {
    const outcome = afterFailure(delivery.attempt, retries, error);
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: delivery.receipt,
        // The last attempt: visible again now, so the redrive policy dead-letters it on the next receive.
        VisibilityTimeout: outcome.status === 'retry' ? outcome.retryInSeconds : 0,
      }),
    );
    if (outcome.status === 'dead') {
      logger.warn('job failed its last attempt; the redrive policy dead-letters it', {
        queue: name,
        attempts: delivery.attempt,
        err: error,
      });
    }
    return outcome;
  };

  const deliveryOf = (message: Message): Delivery => ({
    receipt: message.ReceiptHandle ?? '',
    attempt: Number(message.Attributes?.ApproximateReceiveCount ?? '1') || 1,
  });

  const queue = {
    name,

    async enqueue(jobs, options = {}) {
      const messages = jobs.map((job, i) => ({
        id: `j${i}`,
        body: JSON.stringify({ id: job.id, body: job.body }),
        delaySeconds: enqueuedDelaySeconds(job, options),
      }));
      const unsent = await sendInBatches(messages, { sqs, queueUrl, logger });
      return { failed: jobs.filter((_, i) => unsent.has(`j${i}`)).map((job) => job.id) };
    },

    async receive(options = {}) {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: Math.min(SQS_BATCH_SIZE, Math.max(1, options.max ?? SQS_BATCH_SIZE)),
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          WaitTimeSeconds: 0,
        }),
      );
      const jobs: ReceivedJob<B>[] = [];
      for (const message of out.Messages ?? []) {
        const delivery = deliveryOf(message);
        try {
          jobs.push(parseBody(message.Body ?? '', delivery));
        } catch (error) {
          logger.error('malformed job message', { queue: name, message_id: message.MessageId, error });
          await failDelivery(delivery, error);
        }
      }
      return jobs;
    },

    async ack(jobs) {
      for (const batch of chunks(jobs, SQS_BATCH_SIZE)) {
        const out = await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((job, i) => ({ Id: `a${i}`, ReceiptHandle: job.receipt })),
          }),
        );
        if ((out.Failed ?? []).length > 0) {
          throw new Error(`SQS did not delete ${out.Failed?.length} message(s): ${out.Failed?.[0]?.Code}`);
        }
      }
    },

    fail: (job, error) => failDelivery(job, error),

    /** Parses a message body of this queue as a delivery (the Lambda event-source path). */
    parse: parseBody,

    /** Fails a delivery whose body may not have parsed (the Lambda event-source path). */
    failDelivery,
  } satisfies JobQueueAdapter<B>;
  return queue;
}

export type SqsJobQueue<B> = ReturnType<typeof createSqsJobQueue<B>>;

/**
 * A job queue resolved at its first use: a function without the queue's URL in its environment
 * still starts, and each call is rejected with `resolve`'s error only if it actually enqueues or receives.
 */
export function deferredJobQueue<B>(name: string, resolve: () => JobQueue<B>): JobQueue<B> {
  return {
    name,
    enqueue: async (jobs, options) => resolve().enqueue(jobs, options),
    receive: async (options) => resolve().receive(options),
    ack: async (jobs) => resolve().ack(jobs),
    fail: async (job, error) => resolve().fail(job, error),
  };
}
