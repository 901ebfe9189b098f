import type { SQSClient } from '@aws-sdk/client-sqs';
import { ACTION_QUEUE, type ActionJob, actionJobSchema } from '../actions/jobs.ts';
import type { Logger } from '../platform/logger.ts';
import { createSqsJobQueue, type SqsJobQueue } from './sqs-job-queue.ts';

/**
 * The action queue on SQS (bodies parsed as action jobs): state changes from the stream function,
 * schedule runs from the generator, deadlines from the runner. Its redrive maxReceiveCount
 * (infra/actions.ts) is the job queue's default attempts, as `maxAttempts` here.
 */
export function createActionJobQueue(deps: {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
}): SqsJobQueue<ActionJob> {
  return createSqsJobQueue({ ...deps, name: ACTION_QUEUE, schema: actionJobSchema });
}
