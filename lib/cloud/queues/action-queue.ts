import type { SQSClient } from '@aws-sdk/client-sqs';
import { ACTION_QUEUE, type ActionJob, actionJobSchema } from '../../actions/jobs.ts';
import { OUTAGE_RETRIES, type RetrySchedule } from '../../platform/job-queue.ts';
import type { Logger } from '../../platform/logger.ts';
import { createSqsJobQueue, type SqsJobQueue } from './sqs-job-queue.ts';

/**
 * The action queue on SQS (bodies parsed as action jobs): state changes from the stream function,
 * schedule runs from the generator, deadlines from the runner. It retries through a store outage of
 * 15 minutes (OUTAGE_RETRIES); its redrive maxReceiveCount (infra/actions.ts) is that schedule's attempts.
 */
export function createActionJobQueue(deps: {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
  /** Default OUTAGE_RETRIES; a test may scale the cap down (with its queue's maxReceiveCount). */
  retries?: RetrySchedule;
}): SqsJobQueue<ActionJob> {
  const { retries = OUTAGE_RETRIES, ...rest } = deps;
  return createSqsJobQueue({ ...rest, retries, name: ACTION_QUEUE, schema: actionJobSchema });
}
