import type { SQSClient } from '@aws-sdk/client-sqs';
import { type NotifyQueueJob, notifyQueueJobSchema } from '../../features/list.ts';
import type { Config } from '../../platform/config.ts';
import { NOTIFY_QUEUE } from '../../platform/feature.ts';
import { OUTAGE_RETRIES, type RetrySchedule } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import { createSqsJobQueue, deferredJobQueue, type SqsJobQueue } from './sqs-job-queue.ts';

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
}): SqsJobQueue<NotifyQueueJob> {
  const { retries = OUTAGE_RETRIES, ...rest } = deps;
  return createSqsJobQueue({ ...rest, retries, name: NOTIFY_QUEUE, schema: notifyQueueJobSchema });
}

/** What the notify queue is made from: the base every function holds. */
interface NotifyQueueBase {
  config: Pick<Config, 'notifyQueueUrl'>;
  sqs: SQSClient;
  logger: Logger;
  overrides: { queueRetries?: RetrySchedule | undefined };
}

/**
 * The notify queue of a function (resolved at its first use, so a function without its URL still
 * starts): only the stream function (events), the notifier and the api function (retries) take it,
 * so the others' bundles carry no notify job schema (and the status-page and catalog item modules
 * it reaches): the worker's stays under its 400 KB (test/infra/bundle-contents.test.ts).
 */
export function notifyQueueOf(base: NotifyQueueBase) {
  let queue: SqsJobQueue<NotifyQueueJob> | undefined;
  const requireNotifyQueue = (why: string) => {
    const queueUrl = base.config.notifyQueueUrl;
    if (!queueUrl) throw new Error(`VIGIL_NOTIFY_QUEUE_URL is not set (${why})`);
    queue ??= createNotifyJobQueue({
      sqs: base.sqs,
      queueUrl,
      logger: base.logger,
      ...(base.overrides.queueRetries ? { retries: base.overrides.queueRetries } : {}),
    });
    return queue;
  };
  return {
    notifyQueue: deferredJobQueue(NOTIFY_QUEUE, () =>
      requireNotifyQueue('notification jobs are enqueued there'),
    ),
    requireNotifyQueue,
  };
}
