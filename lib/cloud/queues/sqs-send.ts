import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { chunks } from '../../platform/chunks.ts';
import type { Logger } from '../../platform/logger.ts';
import { mapBounded } from './bounded.ts';

/** SQS's limit: at most 10 entries per batch call. */
export const SQS_BATCH_SIZE = 10;

/** One message to send; `id` is unique within one `sendInBatches` call ([A-Za-z0-9_-], at most 80). */
export interface OutgoingMessage {
  id: string;
  body: string;
  delaySeconds: number;
}

export interface SendOptions {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
  /** Attempts per entry, the first included. @default 3 */
  attempts?: number;
  /** Batches in flight at once. @default 8 */
  concurrency?: number;
}

/** Sends one batch, retrying the entries SQS did not accept; returns the ones never accepted. */
async function sendBatch(batch: OutgoingMessage[], options: SendOptions): Promise<OutgoingMessage[]> {
  const attempts = options.attempts ?? 3;
  let pending = batch;
  const rejected: OutgoingMessage[] = [];
  for (let attempt = 1; attempt <= attempts && pending.length > 0; attempt += 1) {
    if (attempt > 1) await sleep(50 * (attempt - 1));
    try {
      const out = await options.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: pending.map((m) => ({ Id: m.id, MessageBody: m.body, DelaySeconds: m.delaySeconds })),
        }),
      );
      const accepted = new Set((out.Successful ?? []).map((entry) => entry.Id));
      // A sender fault (a bad entry) fails the same way every time: not worth another attempt.
      const faulty = new Set((out.Failed ?? []).filter((f) => f.SenderFault).map((f) => f.Id));
      for (const failure of out.Failed ?? []) {
        options.logger.warn('message not accepted by SQS', {
          id: failure.Id,
          code: failure.Code,
          sender_fault: failure.SenderFault,
          attempt,
        });
      }
      rejected.push(...pending.filter((m) => faulty.has(m.id)));
      pending = pending.filter((m) => !accepted.has(m.id) && !faulty.has(m.id));
    } catch (error) {
      options.logger.warn('SendMessageBatch failed', { entries: pending.length, attempt, error });
    }
  }
  return [...rejected, ...pending];
}

/**
 * Sends messages with SendMessageBatch, 10 per call, a few calls in flight; entries SQS does not
 * accept are retried a few times. Returns the ids of the messages that were never accepted.
 */
export async function sendInBatches(messages: OutgoingMessage[], options: SendOptions): Promise<Set<string>> {
  const unsent = await mapBounded(chunks(messages, SQS_BATCH_SIZE), options.concurrency ?? 8, (batch) =>
    sendBatch(batch, options),
  );
  return new Set(unsent.flat().map((m) => m.id));
}
