import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteMessageBatchCommand,
  type Message,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { TestQueue } from './fauxqs.ts';
import { lambdaContext } from './lambda-context.ts';

/**
 * A Lambda SQS event-source mapping for tests, over a real SQS engine (test/support/fauxqs.ts), with
 * the deployed settings (`ReportBatchItemFailures`, the queue's batch size): ReceiveMessage up to the
 * batch size -> an `SQSEvent` as Lambda builds it -> the handler -> the records not listed in
 * `batchItemFailures` deleted. Failed records are left alone: they come back when their visibility
 * ends (the queue's timeout, or the retry delay the handler set with ChangeMessageVisibility), and
 * the queue's redrive policy, the engine's job, moves them to the DLQ after maxReceiveCount.
 * A handler that throws, or answers an identifier not in the batch, fails the whole batch.
 * Lambda polls continuously; here a test polls when it wants (`runVisible`, `drain`).
 */

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

/** One invocation: the event, and the message ids that failed (every one when the batch failed whole). */
export interface Invocation {
  event: SQSEvent;
  failed: string[];
  /** The handler threw (or answered an unknown identifier): the whole batch failed. */
  batchFailed: boolean;
}

const REGION = 'us-east-1';

function messageAttributes(attributes: Record<string, MessageAttributeValue> = {}): SQSMessageAttributes {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [
      name,
      {
        dataType: String(value.DataType),
        ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
        ...(value.BinaryValue === undefined
          ? {}
          : { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
        stringListValues: [],
        binaryListValues: [],
      },
    ]),
  );
}

/** A received message as Lambda hands it to the function. */
function recordOf(message: Message, queueArn: string): SQSRecord {
  const a = message.Attributes ?? {};
  return {
    messageId: String(message.MessageId),
    receiptHandle: String(message.ReceiptHandle),
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: String(a.ApproximateReceiveCount),
      SentTimestamp: String(a.SentTimestamp),
      SenderId: a.SenderId ?? 'AROAEXAMPLE123:vigil',
      ApproximateFirstReceiveTimestamp: String(a.ApproximateFirstReceiveTimestamp),
    },
    messageAttributes: messageAttributes(message.MessageAttributes),
    md5OfBody: String(message.MD5OfBody),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: REGION,
  };
}

export function createSqsEventSource(options: {
  sqs: SQSClient;
  queue: Pick<TestQueue, 'url' | 'arn' | 'shape'>;
  handler: SqsHandler;
  /** Default: the queue's event source batch size (infra/). */
  batchSize?: number;
  functionName?: string;
}) {
  const { sqs, queue, handler } = options;
  const batchSize = options.batchSize ?? queue.shape.batchSize;
  const context = lambdaContext(options.functionName ?? 'consumer');
  const invocations: Invocation[] = [];

  /** One poll: undefined when nothing is visible, else what the invocation did. */
  const pollOnce = async (): Promise<Invocation | undefined> => {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: batchSize,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
        WaitTimeSeconds: 0,
      }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) return undefined;
    const event: SQSEvent = { Records: messages.map((m) => recordOf(m, queue.arn)) };
    const ids = new Set(event.Records.map((r) => r.messageId));
    let failed: string[];
    let batchFailed = false;
    try {
      const response = await handler(event, context);
      failed = (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      // Lambda treats an identifier that is empty or not in the batch as a failure of the whole batch.
      if (failed.some((id) => !ids.has(id))) batchFailed = true;
    } catch {
      batchFailed = true;
      failed = [];
    }
    if (batchFailed) failed = [...ids];
    const done = event.Records.filter((r) => !failed.includes(r.messageId));
    if (done.length > 0) {
      const deleted = await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queue.url,
          Entries: done.map((r, i) => ({ Id: `d${i}`, ReceiptHandle: r.receiptHandle })),
        }),
      );
      if ((deleted.Failed ?? []).length > 0)
        throw new Error(`the event source could not delete: ${JSON.stringify(deleted.Failed)}`);
    }
    const invocation = { event, failed, batchFailed };
    invocations.push(invocation);
    return invocation;
  };

  /** Polls until nothing is visible now (delayed and in-flight messages stay); answers the batches run. */
  const runVisible = async (maxBatches = 100): Promise<number> => {
    for (let n = 0; n < maxBatches; n += 1) if (!(await pollOnce())) return n;
    throw new Error(`${queue.url} did not settle after ${maxBatches} batches`);
  };

  /**
   * Polls (every `intervalMs` while nothing is visible) until `until()` holds; throws after
   * `timeoutMs` of real time (performance.now, which fake Date does not move).
   */
  const drain = async (opts: {
    until: () => boolean | Promise<boolean>;
    timeoutMs: number;
    intervalMs?: number;
  }): Promise<void> => {
    const deadline = performance.now() + opts.timeoutMs;
    for (;;) {
      if (await opts.until()) return;
      if (performance.now() > deadline)
        throw new Error(`drain of ${queue.url}: condition not met in ${opts.timeoutMs} ms`);
      if (!(await pollOnce())) await sleep(opts.intervalMs ?? 50);
    }
  };

  return { pollOnce, runVisible, drain, invocations, batchSize };
}

export type SqsEventSource = ReturnType<typeof createSqsEventSource>;
