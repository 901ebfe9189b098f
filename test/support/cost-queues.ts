import { createHash, randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  SendMessageCommand,
  type SendMessageCommandInput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import type { CostMeter } from './cost-meter.ts';

/**
 * In-memory SQS queues for the cost run, driven by the run's fake clock (the Lambda event-source
 * mapping is the harness): every request the code makes is counted on the meter, sends per started
 * 64 KB of bodies; the mapping's receive and delete are counted per batch it delivers.
 */

interface Queued {
  messageId: string;
  body: string;
  sentAtMs: number;
  visibleAtMs: number;
}

export function createCountedQueue(name: string, meter: CostMeter, now: () => number) {
  const sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const mock = mockClient(sqs);
  const queued: Queued[] = [];
  const arn = `arn:aws:sqs:us-east-1:123456789012:vigil-${name}`;
  const enqueue = (body: string, delaySeconds: number) => {
    const messageId = randomUUID();
    queued.push({ messageId, body, sentAtMs: now(), visibleAtMs: now() + delaySeconds * 1000 });
    return messageId;
  };
  const bytes = (bodies: (string | undefined)[]) =>
    bodies.reduce((sum, b) => sum + Buffer.byteLength(b ?? ''), 0);
  mock.on(SendMessageBatchCommand).callsFake((input: SendMessageBatchCommandInput) => {
    const entries = input.Entries ?? [];
    meter.countSqs(`${name}:SendMessageBatch`, bytes(entries.map((e) => e.MessageBody)));
    const successful = entries.map((e) => ({
      Id: e.Id,
      MessageId: enqueue(e.MessageBody ?? '', e.DelaySeconds ?? 0),
      MD5OfMessageBody: 'x',
    }));
    return { Successful: successful, Failed: [] };
  });
  mock.on(SendMessageCommand).callsFake((input: SendMessageCommandInput) => {
    meter.countSqs(`${name}:SendMessage`, bytes([input.MessageBody]));
    return { MessageId: enqueue(input.MessageBody ?? '', input.DelaySeconds ?? 0) };
  });
  mock.on(ChangeMessageVisibilityCommand).callsFake(() => {
    meter.countSqs(`${name}:ChangeMessageVisibility`);
    return {};
  });
  mock.on(DeleteMessageBatchCommand).callsFake(() => {
    meter.countSqs(`${name}:DeleteMessageBatch`);
    return { Successful: [], Failed: [] };
  });

  return {
    sqs,
    /** When the next message becomes visible (undefined: empty). */
    nextVisibleAt: () => (queued.length === 0 ? undefined : Math.min(...queued.map((m) => m.visibleAtMs))),
    /**
     * One delivery of the event-source mapping: up to `batchSize` messages visible by `until`,
     * as an SQS event (counted as one ReceiveMessage and one DeleteMessageBatch).
     */
    take(until: number, batchSize = 10): SQSEvent | undefined {
      const visible = queued
        .filter((m) => m.visibleAtMs <= until)
        .sort((a, b) => a.visibleAtMs - b.visibleAtMs);
      const batch = visible.slice(0, batchSize);
      if (batch.length === 0) return undefined;
      for (const m of batch) queued.splice(queued.indexOf(m), 1);
      meter.countSqs(`${name}:ReceiveMessage`);
      meter.countSqs(`${name}:DeleteMessageBatch`);
      return {
        Records: batch.map((m) => ({
          messageId: m.messageId,
          receiptHandle: `AQEB${randomUUID().replaceAll('-', '')}`,
          body: m.body,
          attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: String(m.sentAtMs),
            SenderId: 'AROAEXAMPLE123:vigil',
            ApproximateFirstReceiveTimestamp: String(m.visibleAtMs),
          },
          messageAttributes: {},
          md5OfBody: createHash('md5').update(m.body).digest('hex'),
          eventSource: 'aws:sqs',
          eventSourceARN: arn,
          awsRegion: 'us-east-1',
        })),
      };
    },
    size: () => queued.length,
    restore() {
      mock.restore();
      sqs.destroy();
    },
  };
}
