import {
  SendMessageBatchCommand,
  type SendMessageBatchCommandInput,
  type SendMessageBatchResult,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { mapBounded } from '../../lib/cloud/queues/bounded.ts';
import { type OutgoingMessage, sendInBatches } from '../../lib/cloud/queues/sqs-send.ts';
import { delaySecondsFor } from '../../lib/platform/job-queue.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { QUEUE_URL } from './support.ts';

const sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const sqsMock = mockClient(sqs);
const options = { sqs, queueUrl: QUEUE_URL, logger: silentLogger };

afterEach(() => sqsMock.reset());

function messages(n: number): OutgoingMessage[] {
  return Array.from({ length: n }, (_, i) => ({ id: `m${i}`, body: `{"n":${i}}`, delaySeconds: i % 60 }));
}

/** Entry ids of every SendMessageBatch call, in call order. */
function calls(): string[][] {
  return sqsMock
    .commandCalls(SendMessageBatchCommand)
    .map((call) => (call.args[0].input.Entries ?? []).map((e) => String(e.Id)));
}

/** SQS accepting every entry except `failing` ones (retryable failures). */
const accepting =
  (failing: string[] = []) =>
  (input: SendMessageBatchCommandInput): SendMessageBatchResult => {
    const entries = input.Entries ?? [];
    return {
      Successful: entries
        .filter((e) => !failing.includes(String(e.Id)))
        .map((e) => ({ Id: e.Id, MessageId: `sqs-${e.Id}`, MD5OfMessageBody: '' })),
      Failed: entries
        .filter((e) => failing.includes(String(e.Id)))
        .map((e) => ({ Id: e.Id, Code: 'InternalError', SenderFault: false })),
    };
  };

describe('delaySecondsFor', () => {
  it('rounds up to whole seconds so a job never starts before its slot', () => {
    expect(delaySecondsFor(10_001, 0)).toBe(11);
    expect(delaySecondsFor(10_000, 0)).toBe(10);
  });

  it('is 0 for overdue jobs and at most 900 (the SQS maximum)', () => {
    expect(delaySecondsFor(0, 5_000)).toBe(0);
    expect(delaySecondsFor(2_000_000, 0)).toBe(900);
  });
});

describe('sendInBatches', () => {
  it('sends 25 messages as batches of 10, 10 and 5 with their bodies and delays', async () => {
    sqsMock.on(SendMessageBatchCommand).callsFake(accepting());

    const unsent = await sendInBatches(messages(25), options);

    expect(unsent.size).toBe(0);
    expect(calls().map((ids) => ids.length)).toEqual([10, 10, 5]);
    const [first] = sqsMock.commandCalls(SendMessageBatchCommand);
    expect(first?.args[0].input).toMatchObject({
      QueueUrl: QUEUE_URL,
      Entries: expect.arrayContaining([{ Id: 'm3', MessageBody: '{"n":3}', DelaySeconds: 3 }]),
    });
  });

  it('retries only the entries SQS failed, and succeeds when the retry is accepted', async () => {
    sqsMock
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: ['m0', 'm1', 'm3'].map((Id) => ({ Id, MessageId: Id, MD5OfMessageBody: '' })),
        Failed: [
          { Id: 'm2', Code: 'InternalError', SenderFault: false },
          { Id: 'm4', Code: 'ServiceUnavailable', SenderFault: false },
        ],
      })
      .callsFake(accepting());

    const unsent = await sendInBatches(messages(5), options);

    expect(unsent.size).toBe(0);
    expect(calls()).toEqual([
      ['m0', 'm1', 'm2', 'm3', 'm4'],
      ['m2', 'm4'],
    ]);
  });

  it('gives up on an entry after 3 attempts and reports it unsent', async () => {
    sqsMock.on(SendMessageBatchCommand).callsFake(accepting(['m1']));

    const unsent = await sendInBatches(messages(3), options);

    expect([...unsent]).toEqual(['m1']);
    expect(calls()).toEqual([['m0', 'm1', 'm2'], ['m1'], ['m1']]);
  });

  it('does not retry a sender fault (it would fail the same way)', async () => {
    sqsMock.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: 'm0', MessageId: 'a', MD5OfMessageBody: '' }],
      Failed: [{ Id: 'm1', Code: 'InvalidParameterValue', SenderFault: true }],
    });

    const unsent = await sendInBatches(messages(2), options);

    expect([...unsent]).toEqual(['m1']);
    expect(calls()).toHaveLength(1);
  });

  it('retries a batch whose call failed as a whole', async () => {
    sqsMock.on(SendMessageBatchCommand).rejectsOnce(new Error('socket hang up')).callsFake(accepting());

    const unsent = await sendInBatches(messages(4), options);

    expect(unsent.size).toBe(0);
    expect(calls()).toHaveLength(2);
  });

  it('reports the whole batch unsent when every call fails', async () => {
    sqsMock.on(SendMessageBatchCommand).rejects(new Error('throttled'));

    const unsent = await sendInBatches(messages(12), options);

    expect(unsent.size).toBe(12);
    expect(calls()).toHaveLength(6);
  });
});

describe('mapBounded', () => {
  it('keeps at most `limit` calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, n));
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
  });

  it('returns an empty array for no items', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});
