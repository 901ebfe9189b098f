import type { SQSClient } from '@aws-sdk/client-sqs';
import { NOTIFY_QUEUE, type NotifyJob, notifyJobSchema } from '../notify/jobs.ts';
import { type JobQueue, OUTAGE_RETRIES, type RetrySchedule } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import { createSqsJobQueue, type SqsJobQueue } from './sqs-job-queue.ts';

/**
 * The notify queue on SQS (bodies parsed as notify jobs). It retries through a store outage of 15
 * minutes (OUTAGE_RETRIES); its redrive maxReceiveCount (infra/notifications.ts) is that schedule's attempts.
 */
export function createNotifyJobQueue(deps: {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
  /** Default OUTAGE_RETRIES; a test may scale the cap down (with its queue's maxReceiveCount). */
  retries?: RetrySchedule;
}): SqsJobQueue<NotifyJob> {
  const { retries = OUTAGE_RETRIES, ...rest } = deps;
  return createSqsJobQueue({ ...rest, retries, name: NOTIFY_QUEUE, schema: notifyJobSchema });
}

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
