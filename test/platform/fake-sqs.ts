import { createHash, randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  type ChangeMessageVisibilityCommandInput,
  DeleteMessageBatchCommand,
  type DeleteMessageBatchCommandInput,
  type Message,
  ReceiveMessageCommand,
  type ReceiveMessageCommandInput,
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';

export const FAKE_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/vigil-jobs';
const FAKE_QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:vigil-jobs';

interface StoredMessage {
  messageId: string;
  body: string;
  sentAtMs: number;
  visibleAtMs: number;
  receiveCount: number;
  /** The receipt handle of the latest receive; only it may delete or change the message. */
  receipt?: string;
}

/** An error shaped like the SDK's service exceptions (name and $fault). */
function sqsError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $fault: 'client' });
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * One standard SQS queue with a redrive policy, in memory behind aws-sdk-client-mock, answering
 * like SQS: per-message DelaySeconds, a visibility timeout per receive (the queue's default unless
 * the call sets one), ApproximateReceiveCount, receipt handles that change on every receive, and
 * a message received more than `maxReceiveCount` times moved to the dead-letter queue instead of
 * being delivered. Time is Date.now(), so fake timers drive it.
 */
export function createFakeSqs(options: { maxReceiveCount: number; visibilityTimeoutSeconds?: number }) {
  const sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const mock = mockClient(sqs);
  const queue: StoredMessage[] = [];
  const deadLetters: StoredMessage[] = [];
  const defaultVisibility = options.visibilityTimeoutSeconds ?? 600;

  const byReceipt = (receipt: string | undefined) =>
    queue.find((m) => m.receipt !== undefined && m.receipt === receipt);

  const receive = (input: ReceiveMessageCommandInput): Message[] => {
    const now = Date.now();
    const max = input.MaxNumberOfMessages ?? 1;
    const out: Message[] = [];
    for (const message of [...queue]) {
      if (out.length >= max) break;
      if (message.visibleAtMs > now) continue;
      if (message.receiveCount >= options.maxReceiveCount) {
        queue.splice(queue.indexOf(message), 1);
        deadLetters.push(message);
        continue;
      }
      message.receiveCount += 1;
      message.receipt = `AQEB${randomUUID().replaceAll('-', '')}`;
      message.visibleAtMs = now + (input.VisibilityTimeout ?? defaultVisibility) * 1000;
      const wanted = [...(input.MessageSystemAttributeNames ?? []), ...(input.AttributeNames ?? [])];
      const all = wanted.includes('All');
      out.push({
        MessageId: message.messageId,
        ReceiptHandle: message.receipt,
        MD5OfBody: md5(message.body),
        Body: message.body,
        Attributes: {
          ...(all || wanted.includes('ApproximateReceiveCount')
            ? { ApproximateReceiveCount: String(message.receiveCount) }
            : {}),
          ...(all || wanted.includes('SentTimestamp') ? { SentTimestamp: String(message.sentAtMs) } : {}),
        },
      });
    }
    return out;
  };

  mock.on(SendMessageBatchCommand).callsFake((input: SendMessageBatchCommandInput) => {
    const entries = input.Entries ?? [];
    if (entries.length > 10) throw sqsError('TooManyEntriesInBatchRequest', 'at most 10 entries');
    const now = Date.now();
    const successful = entries.map((entry) => {
      const delay = entry.DelaySeconds ?? 0;
      if (delay < 0 || delay > 900) throw sqsError('InvalidParameterValue', 'DelaySeconds must be 0..900');
      const body = entry.MessageBody ?? '';
      const messageId = randomUUID();
      queue.push({ messageId, body, sentAtMs: now, visibleAtMs: now + delay * 1000, receiveCount: 0 });
      return { Id: entry.Id, MessageId: messageId, MD5OfMessageBody: md5(body) };
    });
    return { Successful: successful, Failed: [] };
  });
  mock.on(ReceiveMessageCommand).callsFake((input: ReceiveMessageCommandInput) => {
    const messages = receive(input);
    return messages.length > 0 ? { Messages: messages } : {};
  });
  mock.on(DeleteMessageBatchCommand).callsFake((input: DeleteMessageBatchCommandInput) => {
    const successful: { Id: string }[] = [];
    const failed: { Id: string; Code: string; SenderFault: boolean }[] = [];
    for (const entry of input.Entries ?? []) {
      const message = byReceipt(entry.ReceiptHandle);
      if (message) {
        queue.splice(queue.indexOf(message), 1);
        successful.push({ Id: String(entry.Id) });
      } else failed.push({ Id: String(entry.Id), Code: 'ReceiptHandleIsInvalid', SenderFault: true });
    }
    return { Successful: successful, Failed: failed };
  });
  mock.on(ChangeMessageVisibilityCommand).callsFake((input: ChangeMessageVisibilityCommandInput) => {
    const message = byReceipt(input.ReceiptHandle);
    if (!message) throw sqsError('ReceiptHandleIsInvalid', 'the receipt handle is not the latest one');
    if (message.visibleAtMs <= Date.now())
      throw sqsError('MessageNotInflight', 'the message is not in flight');
    message.visibleAtMs = Date.now() + (input.VisibilityTimeout ?? 0) * 1000;
    return {};
  });

  return {
    sqs,
    mock,
    /** Bodies of the messages in the dead-letter queue. */
    deadLetterBodies: () => deadLetters.map((m) => m.body),
    /** Messages in the queue (visible, delayed or in flight). */
    size: () => queue.length,
    /**
     * One poll of a Lambda event-source mapping: receives up to `batchSize` messages into an SQS
     * event as Lambda delivers it (no event when nothing is visible).
     */
    async pollEvent(batchSize = 10): Promise<SQSEvent | undefined> {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: FAKE_QUEUE_URL,
          MaxNumberOfMessages: batchSize,
          MessageSystemAttributeNames: ['All'],
        }),
      );
      const messages = out.Messages ?? [];
      if (messages.length === 0) return undefined;
      return {
        Records: messages.map((m) => ({
          messageId: String(m.MessageId),
          receiptHandle: String(m.ReceiptHandle),
          body: String(m.Body),
          attributes: {
            ApproximateReceiveCount: String(m.Attributes?.ApproximateReceiveCount),
            SentTimestamp: String(m.Attributes?.SentTimestamp),
            SenderId: 'AROAEXAMPLE123:vigil',
            ApproximateFirstReceiveTimestamp: String(Date.now()),
          },
          messageAttributes: {},
          md5OfBody: String(m.MD5OfBody),
          eventSource: 'aws:sqs',
          eventSourceARN: FAKE_QUEUE_ARN,
          awsRegion: 'us-east-1',
        })),
      };
    },
    /** What the event-source mapping does after the function answered: deletes the records not reported failed. */
    async deleteSucceeded(event: SQSEvent, failures: { itemIdentifier: string }[]): Promise<void> {
      const failed = new Set(failures.map((f) => f.itemIdentifier));
      const done = event.Records.filter((r) => !failed.has(r.messageId));
      if (done.length === 0) return;
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: FAKE_QUEUE_URL,
          Entries: done.map((r, i) => ({ Id: `d${i}`, ReceiptHandle: r.receiptHandle })),
        }),
      );
    },
    restore() {
      mock.restore();
      sqs.destroy();
    },
  };
}

export type FakeSqs = ReturnType<typeof createFakeSqs>;
