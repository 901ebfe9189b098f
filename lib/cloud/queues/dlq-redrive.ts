import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { SQS_BATCH_SIZE } from './sqs-send.ts';

/**
 * `vigil dlq redrive <queue>` on SQS: moves the messages of a queue's dead-letter queue back to
 * the queue, ten at a time (receive, send, then delete what was sent). A crash between a send and
 * its delete leaves the message in both; running it again sends it once more, which the consumers
 * take as the duplicate delivery SQS may always make (the job envelope's id). Bounded: it stops
 * when the DLQ answers nothing, after `max` messages, or when a message it moved comes round again.
 */

/** Messages one run moves at most, unless told otherwise. */
const REDRIVE_MAX_MESSAGES = 10_000;
/** How long a received dead letter stays hidden while it is being moved. */
const HOLD_SECONDS = 60;

const redrivePolicySchema = z.object({ deadLetterTargetArn: z.string().min(1) });

/** The URL of the DLQ a queue's redrive policy names. */
async function deadLetterQueueUrl(sqs: SQSClient, queueUrl: string): Promise<string> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['RedrivePolicy'] }),
  );
  const policy = out.Attributes?.RedrivePolicy;
  if (!policy) throw new Error(`${queueUrl} has no redrive policy: it has no dead-letter queue`);
  const arn = redrivePolicySchema.parse(JSON.parse(policy)).deadLetterTargetArn;
  const [, , , , account, name] = arn.split(':');
  const found = await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account }));
  if (!found.QueueUrl) throw new Error(`no URL for the dead-letter queue ${arn}`);
  return found.QueueUrl;
}

/** Moves the dead letters of the queue at `queueUrl` back to it; answers how many moved. */
export async function redriveSqsDeadLetters(deps: {
  sqs: SQSClient;
  queueUrl: string;
  max?: number;
}): Promise<{ moved: number }> {
  const { sqs, queueUrl } = deps;
  const max = deps.max ?? REDRIVE_MAX_MESSAGES;
  const dlqUrl = await deadLetterQueueUrl(sqs, queueUrl);
  const seen = new Set<string>();
  let moved = 0;
  while (moved < max) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: Math.min(SQS_BATCH_SIZE, max - moved),
        MessageAttributeNames: ['All'],
        VisibilityTimeout: HOLD_SECONDS,
        WaitTimeSeconds: 0,
      }),
    );
    const messages = (out.Messages ?? []).filter((m) => m.MessageId && !seen.has(m.MessageId));
    if (messages.length === 0) break;
    for (const m of messages) seen.add(String(m.MessageId));
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages.map((m, i) => ({
          Id: `m${i}`,
          MessageBody: m.Body ?? '',
          ...(m.MessageAttributes ? { MessageAttributes: m.MessageAttributes } : {}),
        })),
      }),
    );
    const ok = new Set((sent.Successful ?? []).map((s) => s.Id));
    const done = messages.filter((_, i) => ok.has(`m${i}`));
    if (done.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: dlqUrl,
          Entries: done.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: String(m.ReceiptHandle) })),
        }),
      );
    }
    moved += done.length;
    // What could not be sent stays in the DLQ (visible again after the hold) for the next run.
    if (done.length < messages.length) break;
  }
  return { moved };
}
