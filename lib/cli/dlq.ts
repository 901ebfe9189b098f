import { SQSClient } from '@aws-sdk/client-sqs';
import { ACTION_QUEUE } from '../actions/jobs.ts';
import { redriveSqsDeadLetters } from '../cloud/lambda.ts';
import { redriveLocalDeadLetters } from '../local/dlq-redrive.ts';
import { PROBE_QUEUE } from '../local/probe-queue.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import { NOTIFY_QUEUE } from '../platform/feature.ts';
import type { Table } from '../store/table.ts';

/** The queues `dlq redrive` knows, by the name operators type (the local queues' own names). */
export const REDRIVE_QUEUES = [NOTIFY_QUEUE, ACTION_QUEUE, PROBE_QUEUE] as const;
type RedriveQueue = (typeof REDRIVE_QUEUES)[number];

/** Moves a queue's dead letters back to it; answers how many moved. */
export type RedriveDeadLetters = (queue: RedriveQueue) => Promise<{ moved: number }>;

/**
 * `dlq redrive` for the configured store: the SQLite queue's dead letters locally; with the
 * DynamoDB store (a deployment), the SQS queue named by VIGIL_<NOTIFY|ACTION|PROBE>_QUEUE_URL and
 * the DLQ of its redrive policy.
 */
export function deadLetterRedrive(deps: {
  config: Config;
  table: Table;
  clock: Clock;
  sqs?: SQSClient;
}): RedriveDeadLetters {
  const { config } = deps;
  if (config.store !== 'dynamodb') return (queue) => redriveLocalDeadLetters(deps, queue);
  const urls: Record<RedriveQueue, [string | undefined, string]> = {
    [NOTIFY_QUEUE]: [config.notifyQueueUrl, 'VIGIL_NOTIFY_QUEUE_URL'],
    [ACTION_QUEUE]: [config.actionQueueUrl, 'VIGIL_ACTION_QUEUE_URL'],
    [PROBE_QUEUE]: [config.probeQueueUrl, 'VIGIL_PROBE_QUEUE_URL'],
  };
  return async (queue) => {
    const [queueUrl, variable] = urls[queue];
    if (!queueUrl) throw new Error(`${variable} is not set: the URL of the ${queue} queue (a stack output)`);
    const sqs = deps.sqs ?? new SQSClient({ region: config.region });
    try {
      return await redriveSqsDeadLetters({ sqs, queueUrl });
    } finally {
      if (!deps.sqs) sqs.destroy();
    }
  };
}
